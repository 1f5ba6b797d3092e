import type { KbSearchResult } from '../../../src-shared/kb-view';
import { StudioError, type StudioErrorView } from '../../../src-shared/studio-error';
import type { KbClient } from './kb-client';
import type { KbHistory } from './kb-history';

export interface KbSearchRequest {
  profileId: string;
  appId: string;
  similarity: number;
  limit: number;
  prompts: string[];
}

/**
 * The search tester: asks the knowledge base, keeps what it answered in the profile's history, and
 * tells the connection indicator how the key fared (a refused key shows in the top bar).
 */
export class KbSearches {
  constructor(
    private clientFor: (profileId: string) => KbClient,
    private history: KbHistory,
    private onOutcome: (profileId: string, error?: StudioErrorView) => void,
  ) {}

  async search(request: KbSearchRequest): Promise<KbSearchResult> {
    const { profileId, appId, similarity, limit, prompts } = request;
    const found = await this.clientFor(profileId)
      .search({ appId, similarity, limit, prompts })
      .catch((err: unknown) => {
        this.onOutcome(profileId, StudioError.from(err).toView());
        throw err;
      });
    this.onOutcome(profileId);
    const result: KbSearchResult = {
      id: `kbq_${Date.now().toString(36)}`,
      profileId,
      at: Date.now(),
      appId,
      similarity,
      limit,
      prompts,
      rawSearch: found.rawSearch.map((h) => ({ id: h.id, q: h.q, a: h.a })),
      userSystemPrompt: found.userSystemPrompt,
      quotePrompt: found.quotePrompt,
    };
    this.history.add(result);
    return result;
  }

  list(profileId: string): KbSearchResult[] {
    return this.history.list(profileId);
  }
}
