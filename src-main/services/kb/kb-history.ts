import { readFileSync } from 'node:fs';
import type { KbSearchResult } from '../../../src-shared/kb-view';
import { writeFileAtomicSync } from '../storage/atomic-file';
import { logCaughtUnlessMissing } from '../log/studio-log';

/** How many searches the file keeps, every profile's together. */
const KEPT = 100;

/** A search as stored: before history was kept per profile, entries had no profileId. */
type StoredSearch = Omit<KbSearchResult, 'profileId'> & { profileId?: string };

/**
 * The knowledge-base search tester's history. A search is made with one profile's key and appId, so
 * each profile sees its own searches only.
 */
export class KbHistory {
  constructor(private file: string) {}

  private read(): StoredSearch[] {
    try {
      const stored = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return Array.isArray(stored) ? (stored as StoredSearch[]) : [];
    } catch (err) {
      logCaughtUnlessMissing('knowledge-base search history read', err);
      return [];
    }
  }

  /**
   * One profile's searches, newest first. An entry from before the history was per profile says
   * nothing of whose key made it, so it stays visible to whichever profile is active: hiding it from
   * all of them would lose it, and such entries predate any second profile for most people.
   */
  list(profileId: string): KbSearchResult[] {
    return this.read()
      .filter((s) => (s.profileId ?? profileId) === profileId)
      .map((s) => ({ ...s, profileId }));
  }

  add(result: KbSearchResult): void {
    writeFileAtomicSync(this.file, JSON.stringify([result, ...this.read()].slice(0, KEPT)));
  }
}
