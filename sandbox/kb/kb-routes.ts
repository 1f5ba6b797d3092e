import { randomBytes } from 'node:crypto';
import { countTokens, loadTokenizer } from '../heavy-modules';
import type { KbKey, SandboxConfig } from '../config';
import {
  BodyTooLarge,
  BodyUnreadable,
  InvalidJson,
  header,
  parseJson,
  readBody,
  sendJson,
  type Exchange,
} from '../exchange';
import { echoRejectedKey } from '../key-echo';
import type { SandboxStore } from '../store';
import { cosine, embed } from './embedding';
import { splitIntoPairs } from './qa-splitter';

export const KB_PREFIX = '/api/openapi/kb';

/**
 * The knowledge-base application answers its own errors with HTTP 200 and the error in the body's
 * `code`, as the original application does; only proxy-level failures use other HTTP statuses.
 */
export class KbError extends Error {
  constructor(
    readonly code: number,
    readonly statusText: string,
    message: string,
  ) {
    super(message);
  }
  body(): { code: number; statusText: string; message: string; data: null } {
    return { code: this.code, statusText: this.statusText, message: this.message, data: null };
  }
}

const missing = (message: string) => new KbError(500, 'invalidParams', message);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class KbRoutes {
  constructor(
    private config: SandboxConfig,
    private store: SandboxStore,
  ) {}

  async handle(ex: Exchange): Promise<void> {
    try {
      await this.route(ex);
    } catch (err) {
      if (err instanceof KbError) return sendJson(ex, 200, err.body());
      throw err;
    }
  }

  private async route(ex: Exchange): Promise<void> {
    const owner = this.authenticate(ex);
    const path = ex.url.pathname;
    if (ex.method === 'POST' && path === `${KB_PREFIX}/pushData`) {
      const body = await this.body(ex);
      await loadTokenizer();
      return this.push(ex, owner, body);
    }
    if (ex.method === 'POST' && path === `${KB_PREFIX}/appKbSearch`)
      return this.search(ex, owner, await this.body(ex));
    throw new KbError(404, 'notFound', `no knowledge-base endpoint answers ${ex.method} ${path}`);
  }

  private authenticate(ex: Exchange): KbKey {
    const key = header(ex.req, 'apikey');
    const owner = key ? this.config.kb.find((k) => k.key === key) : undefined;
    if (!owner)
      throw new KbError(
        403,
        'unAuthApiKey',
        !key
          ? 'the apikey header is missing'
          : this.config.echoKeyInErrors
            ? `the API key ${echoRejectedKey(ex, key)} is not valid`
            : 'the API key is not valid',
      );
    return owner;
  }

  private async body(ex: Exchange): Promise<Record<string, unknown>> {
    try {
      const body = parseJson(await readBody(ex.req, this.config.limits.maxBodyBytes));
      if (!isRecord(body)) throw missing('the body must be a JSON object');
      return body;
    } catch (err) {
      if (err instanceof BodyTooLarge) throw new KbError(413, 'bodyTooLarge', err.message);
      if (err instanceof InvalidJson || err instanceof BodyUnreadable) throw missing(err.message);
      throw err;
    }
  }

  private push(ex: Exchange, owner: KbKey, body: Record<string, unknown>): void {
    const { kbId, mode, data } = body;
    if (typeof kbId !== 'string' || !kbId) throw missing('kbId is required');
    if (!owner.kbIds.includes(kbId))
      throw new KbError(403, 'unAuthKb', `no permission for knowledge base "${kbId}"`);
    if (mode !== 'index' && mode !== 'qa') throw missing('mode must be index or qa');
    if (!Array.isArray(data)) throw missing('data must be an array of {q, a}');
    if (body.prompt !== undefined && typeof body.prompt !== 'string')
      throw missing('prompt must be a string');

    const rows: { q: string; a: string }[] = [];
    let skipped = 0;
    data.forEach((item: unknown, i: number) => {
      if (
        !isRecord(item) ||
        typeof item.q !== 'string' ||
        (item.a !== undefined && typeof item.a !== 'string')
      ) {
        throw missing(`data[${i}] must have a string q and an optional string a`);
      }
      const q = item.q.trim();
      const a = typeof item.a === 'string' ? item.a.trim() : '';
      const tokens = mode === 'index' ? countTokens(q) + countTokens(a) : countTokens(q);
      const limit = mode === 'index' ? this.config.limits.kbIndexTokens : this.config.limits.kbQaTokens;
      if (!q || tokens > limit) {
        skipped += 1;
        return;
      }
      if (mode === 'index') rows.push({ q, a });
      else rows.push(...splitIntoPairs(q));
    });

    const now = Date.now();
    for (const row of rows) {
      this.store.kb.push({
        id: randomBytes(12).toString('hex'),
        kbId,
        q: row.q,
        a: row.a,
        vector: embed(`${row.q}\n${row.a}`),
        createdAt: now,
      });
    }
    this.store.changed();
    sendJson(ex, 200, {
      code: 200,
      statusText: '',
      message: `inserted ${rows.length}${skipped ? `, skipped ${skipped} over the token limit or empty` : ''}`,
      data: rows.length,
    });
  }

  private search(ex: Exchange, owner: KbKey, body: Record<string, unknown>): void {
    const { appId, prompts } = body;
    if (typeof appId !== 'string' || !appId) throw missing('appId is required');
    const app = owner.apps.find((a) => a.id === appId);
    if (!app) throw new KbError(403, 'unAuthModel', `no permission for app "${appId}"`);
    const similarity = body.similarity ?? 0.8;
    if (typeof similarity !== 'number' || !(similarity >= 0 && similarity <= 1)) {
      throw missing('similarity must be a number from 0 to 1');
    }
    const limit = body.limit ?? 5;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1)
      throw missing('limit must be a positive integer');
    if (!Array.isArray(prompts) || prompts.length === 0)
      throw missing('prompts must hold at least one question');
    const last: unknown = prompts[prompts.length - 1];
    if (!isRecord(last) || typeof last.value !== 'string' || !last.value.trim()) {
      throw missing('the last entry of prompts needs a value');
    }

    // Only the last question is searched, as the API says.
    const query = embed(last.value);
    const hits = this.store.kb
      .filter((r) => app.kbIds.includes(r.kbId))
      .map((r) => ({ r, score: cosine(query, r.vector) }))
      .filter(({ score }) => score >= similarity)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
    const rawSearch = hits.map(({ r }) => ({ id: r.id, q: r.q, a: r.a }));
    const quote = rawSearch.length
      ? `Knowledge base:\n${rawSearch.map((h, i) => `${i + 1}. [${h.q}\n${h.a}]`).join('\n')}`
      : '';
    sendJson(ex, 200, {
      code: 200,
      statusText: '',
      message: '',
      data: {
        code: 200,
        rawSearch,
        userSystemPrompt: { obj: 'System', value: app.systemPrompt },
        quotePrompt: { obj: 'System', value: quote },
      },
    });
  }
}
