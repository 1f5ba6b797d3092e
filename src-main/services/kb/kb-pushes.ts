import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KbMode, KbPush, KbRow } from '../../../src-shared/kb-view';
import { StudioError } from '../../../src-shared/studio-error';
import type { EventHub } from '../host/event-hub';
import { writeFileAtomicSync } from '../library/atomic-file';
import type { KbClient } from './kb-client';
import { checkRows } from './kb-rows';

interface StoredPush extends Omit<KbPush, 'chunksSent' | 'chunks' | 'rows'> {
  profileId: string;
  prompt?: string;
  /** Rows in chunks; a chunk is marked sent only once the knowledge base has answered for it. */
  chunks: { rows: KbRow[]; state: 'pending' | 'sent' | 'failed'; inserted: number }[];
}

const CHUNK_RETRIES = 3;

/**
 * Uploads to a knowledge base in chunks, with progress. Rows over the token limit and repeats are
 * left out before anything is sent. A chunk that fails is retried; the upload's state is on disk
 * after every chunk, so an interrupted upload resumes where it stopped and sends no row twice.
 */
export class KbPushes {
  private pushes = new Map<string, StoredPush>();
  private running = new Set<string>();

  constructor(
    private dir: string,
    private events: EventHub,
    private clientFor: (profileId: string) => KbClient,
    private sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {
    try {
      for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
        const push = JSON.parse(readFileSync(join(dir, name), 'utf8')) as StoredPush;
        if (push.state === 'running') push.state = 'paused';
        this.pushes.set(push.id, push);
      }
    } catch {
      // No uploads yet.
    }
  }

  private view(p: StoredPush): KbPush {
    return {
      id: p.id,
      kbId: p.kbId,
      mode: p.mode,
      state: p.state,
      rows: p.chunks.reduce((n, c) => n + c.rows.length, 0),
      chunks: p.chunks.length,
      chunksSent: p.chunks.filter((c) => c.state === 'sent').length,
      inserted: p.chunks.reduce((n, c) => n + c.inserted, 0),
      failedChunks: p.chunks.filter((c) => c.state === 'failed').length,
      error: p.error,
      createdAt: p.createdAt,
    };
  }

  private save(p: StoredPush): void {
    writeFileAtomicSync(join(this.dir, `${p.id}.json`), JSON.stringify(p));
    this.events.emit('kb.pushProgress', this.view(p));
  }

  list(): KbPush[] {
    return [...this.pushes.values()].sort((a, b) => b.createdAt - a.createdAt).map((p) => this.view(p));
  }

  start(input: {
    profileId: string;
    kbId: string;
    mode: KbMode;
    prompt?: string;
    rows: KbRow[];
    chunkSize: number;
  }): KbPush {
    const valid = checkRows(input.rows, input.mode).filter((r) => !r.over && !r.duplicate);
    if (valid.length === 0)
      throw new StudioError({
        code: 'STUDIO_NOTHING_TO_PUSH',
        message: 'No row is left to upload: every row is empty, over the limit or a repeat.',
      });
    const chunks: StoredPush['chunks'] = [];
    for (let i = 0; i < valid.length; i += input.chunkSize) {
      chunks.push({
        rows: valid.slice(i, i + input.chunkSize).map(({ q, a }) => ({ q, a })),
        state: 'pending',
        inserted: 0,
      });
    }
    const push: StoredPush = {
      id: `kbpush_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`,
      profileId: input.profileId,
      kbId: input.kbId,
      mode: input.mode,
      prompt: input.prompt,
      state: 'running',
      inserted: 0,
      failedChunks: 0,
      createdAt: Date.now(),
      chunks,
    };
    this.pushes.set(push.id, push);
    this.save(push);
    void this.run(push);
    return this.view(push);
  }

  /** Sends the chunks not sent yet: an interrupted upload, or the chunks that failed. */
  resume(id: string): KbPush {
    const push = this.pushes.get(id);
    if (!push)
      throw new StudioError({ code: 'STUDIO_PUSH_NOT_FOUND', message: 'That upload is no longer known.' });
    for (const chunk of push.chunks) if (chunk.state === 'failed') chunk.state = 'pending';
    push.state = 'running';
    push.error = undefined;
    this.save(push);
    void this.run(push);
    return this.view(push);
  }

  wait(id: string): Promise<KbPush> {
    return new Promise((resolve) => {
      const check = () => {
        const push = this.pushes.get(id)!;
        if (!this.running.has(id) && push.state !== 'running') resolve(this.view(push));
        else setTimeout(check, 20);
      };
      check();
    });
  }

  private async run(push: StoredPush): Promise<void> {
    if (this.running.has(push.id)) return;
    this.running.add(push.id);
    try {
      const client = this.clientFor(push.profileId);
      for (const chunk of push.chunks) {
        if (chunk.state === 'sent') continue;
        for (let attempt = 1; ; attempt++) {
          try {
            const { inserted } = await client.pushData({
              kbId: push.kbId,
              mode: push.mode,
              ...(push.mode === 'qa' && push.prompt ? { prompt: push.prompt } : {}),
              data: chunk.rows,
            });
            chunk.state = 'sent';
            chunk.inserted = inserted;
            this.save(push);
            break;
          } catch (err) {
            const error = StudioError.from(err);
            if (!error.retryable || attempt >= CHUNK_RETRIES) {
              chunk.state = 'failed';
              push.error = error.toView();
              this.save(push);
              // A definite refusal (a bad key, a foreign kb) would fail every chunk alike.
              if (!error.retryable) {
                push.state = 'failed';
                this.save(push);
                return;
              }
              break;
            }
            await this.sleep(500 * 2 ** attempt);
          }
        }
      }
      push.state = push.chunks.some((c) => c.state === 'failed') ? 'failed' : 'done';
      this.save(push);
    } finally {
      this.running.delete(push.id);
    }
  }
}
