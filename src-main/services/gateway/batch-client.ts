import { createWriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { z } from 'zod';
import { StudioError } from '../../../src-shared/studio-error';
import { diskRefusal } from '../storage/disk-refusal';
import { logCaught } from '../log/studio-log';
import { redact } from '../secrets/secret-store';
import { gatewayFetch, readError, readJson, readText, type GatewayResponse } from './gateway-request';
import type { Transport } from './streamed-answer';
import {
  wireBatchSchema,
  wireItemSchema,
  wireListSchema,
  wireModelSchema,
  type CreateBatchBody,
  type WireBatch,
  type WireItem,
} from './batch-wire';

export interface BatchAccount {
  baseUrl: string;
  key: string;
  /** Every other key the studio knows, so that none a gateway repeats comes back out of this client. */
  knownKeys?: () => readonly string[];
}

export interface ListFilters {
  status?: string;
  taskName?: string;
  downloaded?: boolean;
  /** Unix seconds, inclusive. */
  from?: number;
  /** Unix seconds, exclusive. */
  to?: number;
}

const BATCHES = '/v1/images/batches';
/** A minute without a byte: longer than a gateway pauses between the entries of an archive it builds as it sends. */
const STALL_MS = 60_000;
const PAGE_LIMIT = 100;
const ITEMS_LIMIT = 500;

/** Ids are opaque: every path segment is escaped. */
const seg = (value: string) => encodeURIComponent(value);

function parse<T extends z.ZodTypeAny>(
  schema: T,
  value: unknown,
  answer: { requestId: string; status: number },
): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    // The field is named, zod's own words are not ("Invalid input: expected string, received
    // null"). The status goes with it: a 2xx to a create that cannot be read leaves it unknown
    // whether the batch was made (outcome-unknown.ts).
    const field = result.error.issues[0]?.path.join('.');
    throw new StudioError({
      code: 'GATEWAY_BAD_RESPONSE',
      message: `The gateway's answer does not match the batch API${field ? ` (at ${field})` : ''}.`,
      httpStatus: answer.status,
      requestId: answer.requestId,
      source: 'gateway',
    });
  }
  return result.data;
}

/**
 * Every endpoint of the batch API, typed and validated. Tolerant of the deployed variants in
 * gateway-notes.md; errors come back as one StudioError with code, status, request id and whether
 * a retry is safe.
 */
export class BatchClient {
  constructor(
    private account: BatchAccount,
    private timeoutMs = 60_000,
    /** How long a ZIP or an image may send nothing before it counts as cut (and is resumed). */
    private stallMs = STALL_MS,
  ) {}

  /** Takes every known key out of gateway text that reaches the client by other ways (a ZIP's errors.json). */
  scrub(text: string): string {
    return redact(text, [this.account.key, ...(this.account.knownKeys?.() ?? [])]);
  }

  private request(
    path: string,
    init: {
      method?: string;
      body?: unknown;
      headers?: Record<string, string>;
      timeoutMs?: number;
      stallMs?: number;
      transport?: Transport;
      signal?: AbortSignal;
    } = {},
  ) {
    return gatewayFetch({
      baseUrl: this.account.baseUrl,
      path,
      method: init.method,
      body: init.body,
      headers: init.headers,
      auth: { header: 'authorization', value: `Bearer ${this.account.key}` },
      secrets: [this.account.key, ...(this.account.knownKeys?.() ?? [])],
      timeoutMs: init.timeoutMs ?? this.timeoutMs,
      stallMs: init.stallMs,
      transport: init.transport,
      signal: init.signal,
    });
  }

  /**
   * A binary answer (a ZIP, an image): any type. Ten minutes for its headers (a gateway may build
   * the archive first), then no limit on the whole, only on a stall: a large batch on a slow line
   * takes what it takes.
   */
  private binary(
    path: string,
    signal?: AbortSignal,
    headers: Record<string, string> = {},
    transport?: Transport,
  ) {
    return this.request(path, {
      timeoutMs: 10 * 60_000,
      stallMs: this.stallMs,
      transport,
      signal,
      headers: { accept: '*/*', ...headers },
    });
  }

  private async json<T extends z.ZodTypeAny>(
    schema: T,
    exchange: Promise<GatewayResponse>,
  ): Promise<z.output<T>> {
    const ex = await exchange;
    return parse(schema, await readJson(ex), { requestId: ex.requestId, status: ex.response.status });
  }

  async models(): Promise<string[]> {
    const list = await this.json(wireListSchema(wireModelSchema), this.request(`${BATCHES}/models`));
    return list.data.map((m) => m.id);
  }

  /** Any 2xx with a batch object counts as accepted: 200 from older builds, 202 from newer ones. */
  async create(body: CreateBatchBody, idempotencyKey: string, signal?: AbortSignal): Promise<WireBatch> {
    return this.json(
      wireBatchSchema,
      this.request(BATCHES, {
        method: 'POST',
        body,
        headers: { 'idempotency-key': idempotencyKey },
        timeoutMs: 120_000,
        signal,
      }),
    );
  }

  async get(id: string): Promise<WireBatch> {
    return this.json(wireBatchSchema, this.request(`${BATCHES}/${seg(id)}`, { timeoutMs: 30_000 }));
  }

  /** One page of the key's batches; the cursor is an offset. */
  async listPage(
    filters: ListFilters,
    offset: number,
    limit = PAGE_LIMIT,
  ): Promise<{ data: WireBatch[]; hasMore: boolean }> {
    const q = new URLSearchParams({ limit: String(Math.min(limit, PAGE_LIMIT)) });
    if (offset > 0) q.set('cursor', String(offset));
    if (filters.status) q.set('status', filters.status);
    if (filters.taskName) q.set('task_name', filters.taskName);
    if (filters.downloaded !== undefined) q.set('downloaded', String(filters.downloaded));
    if (filters.from !== undefined) q.set('from', String(Math.floor(filters.from)));
    if (filters.to !== undefined) q.set('to', String(Math.floor(filters.to)));
    const page = await this.json(wireListSchema(wireBatchSchema), this.request(`${BATCHES}?${q}`));
    return { data: page.data, hasMore: page.has_more ?? page.data.length === limit };
  }

  /**
   * Every batch matching the filters. Pages by offset and stops on an empty or short page:
   * has_more can be true when the last page was exactly full.
   */
  async listAll(filters: ListFilters = {}, max = 10_000): Promise<WireBatch[]> {
    const all: WireBatch[] = [];
    while (all.length < max) {
      const page = await this.listPage(filters, all.length);
      all.push(...page.data);
      if (page.data.length === 0 || !page.hasMore || page.data.length < PAGE_LIMIT) break;
    }
    return all;
  }

  async items(id: string, status: 'all' | 'pending' | 'success' | 'failed' = 'all'): Promise<WireItem[]> {
    const all: WireItem[] = [];
    for (;;) {
      const q = new URLSearchParams({ status, limit: String(ITEMS_LIMIT) });
      if (all.length > 0) q.set('cursor', String(all.length));
      const page = await this.json(
        wireListSchema(wireItemSchema),
        this.request(`${BATCHES}/${seg(id)}/items?${q}`),
      );
      all.push(...page.data);
      if (page.data.length === 0 || page.data.length < ITEMS_LIMIT || page.has_more === false) break;
    }
    return all;
  }

  async cancel(id: string): Promise<WireBatch> {
    return this.json(wireBatchSchema, this.request(`${BATCHES}/${seg(id)}/cancel`, { method: 'POST' }));
  }

  async deleteOutputs(id: string): Promise<WireBatch | undefined> {
    const ex = await this.request(`${BATCHES}/${seg(id)}/outputs`, { method: 'DELETE' });
    const body = await readJson<unknown>(ex).catch((err: unknown) => {
      if (err instanceof StudioError && err.code === 'GATEWAY_BAD_RESPONSE') return undefined;
      throw err;
    });
    const parsed = wireBatchSchema.safeParse(body);
    return parsed.success ? parsed.data : undefined;
  }

  async deleteRecord(id: string): Promise<void> {
    const ex = await this.request(`${BATCHES}/${seg(id)}`, { method: 'DELETE' });
    if (!ex.response.ok) throw await readError(ex);
    await readText(ex);
  }

  /**
   * Streams a binary answer (the ZIP, or one item's image) to a file, reporting bytes as they come.
   * Judges by status first; the caller verifies what arrived.
   */
  async downloadTo(
    path: string,
    file: string,
    onBytes: (received: number, total: number | undefined) => void,
    signal?: AbortSignal,
  ): Promise<{ contentType: string | null; bytes: number; requestId: string }> {
    const ex = await this.binary(path, signal);
    const { response, requestId } = ex;
    if (!response.ok || !response.body) throw await readError(ex);
    const total = Number(response.headers.get('content-length')) || undefined;
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length;
        onBytes(received, total);
        done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.from(ex.chunks()), counter, createWriteStream(file));
    } catch (err) {
      // A full or read-only disk is not a network that broke: retrying the download cannot mend it.
      const disk = diskRefusal(err, dirname(file));
      if (disk) throw disk;
      logCaught('download body', err);
      throw new StudioError({
        code: 'NETWORK_ERROR',
        // In words: the stream's own text ("terminated", "Premature close") tells people nothing.
        message:
          err instanceof StudioError
            ? `The download broke off after ${received} bytes: ${err.message}` // a stall, in words
            : `The download broke off after ${received} bytes.`,
        requestId,
        retryable: true,
        source: 'network',
      });
    }
    return {
      contentType: ex.scrub(response.headers.get('content-type') ?? '') || null,
      bytes: received,
      requestId,
    };
  }

  /**
   * The batch's ZIP as it arrives, from byte `from` on. From 0, any success; from later, only a
   * 206 whose Content-Range starts at `from`, else undefined (the gateway does not resume, and the
   * caller falls back). Errors while reading the body are the reader's to handle: a cut stream.
   */
  async zipStream(
    id: string,
    from: number,
    signal?: AbortSignal,
  ): Promise<{ body: AsyncIterable<Uint8Array>; total?: number } | undefined> {
    // Read from a socket of its own: see socket-answer.ts.
    const ex = await this.binary(
      this.zipPath(id),
      signal,
      from > 0 ? { range: `bytes=${from}-` } : {},
      'socket',
    );
    const { response } = ex;
    if (from > 0) {
      const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
      // Busy (the slot of the cut answer not yet given back): an error the caller may wait out,
      // not a gateway that cannot resume.
      if (response.status === 429) throw await readError(ex);
      if (response.status !== 206 || !response.body || !range || Number(range[1]) !== from) {
        await response.body?.cancel().catch(() => undefined);
        return undefined;
      }
      return {
        body: ex.chunks(),
        total: Number(range[3]) || undefined,
      };
    }
    if (!response.ok || !response.body) throw await readError(ex);
    return {
      body: ex.chunks(),
      total: Number(response.headers.get('content-length')) || undefined,
    };
  }

  zipPath(id: string): string {
    return `${BATCHES}/${seg(id)}/download`;
  }

  contentPath(id: string, customId: string, imageIndex = 0): string {
    return `${BATCHES}/${seg(id)}/items/${seg(customId)}/content${imageIndex ? `?image_index=${imageIndex}` : ''}`;
  }
}
