import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KbMode, KbPush, KbRow } from '../../../src-shared/kb-view';
import { StudioError, type StudioErrorView } from '../../../src-shared/studio-error';
import type { EventHub } from '../dispatch/event-hub';
import { writeFileAtomicSync } from '../storage/atomic-file';
import type { KbClient } from './kb-client';
import { checkRows } from './kb-rows';
import { logCaughtUnlessMissing } from '../log/studio-log';
import { retryPolicies, withRetry } from '../gateway/retry-policy';

interface StoredPush extends Omit<KbPush, 'chunksSent' | 'chunks' | 'rows' | 'profileId'> {
  /**
   * Every record the studio writes has it; a record without one (written by hand, or damaged) is
   * listed under whichever profile is active, since no key or id in it says whose it was and
   * hiding it from every profile would lose the upload from view.
   */
  profileId?: string;
  prompt?: string;
  /** Rows in chunks; a chunk is marked sent only once the knowledge base has answered for it. */
  chunks: { rows: KbRow[]; state: 'pending' | 'sent' | 'failed'; inserted: number }[];
}

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
    /** Tests wait less between retries of a chunk. */
    private sleep?: (ms: number) => Promise<void>,
    /** Told how each request went, so the connection indicator can show a refused key. */
    private onOutcome: (profileId: string, error?: StudioErrorView) => void = () => undefined,
  ) {
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    } catch (err) {
      // No uploads yet.
      logCaughtUnlessMissing('knowledge-base uploads read', err);
    }
    for (const name of names) {
      // One damaged record costs that upload's entry, not the list of every other upload.
      try {
        const push = JSON.parse(readFileSync(join(dir, name), 'utf8')) as StoredPush;
        if (push.state === 'running') push.state = 'paused';
        this.pushes.set(push.id, push);
      } catch (err) {
        logCaughtUnlessMissing('knowledge-base upload read', err);
      }
    }
  }

  private view(p: StoredPush, activeProfileId = ''): KbPush {
    return {
      id: p.id,
      profileId: p.profileId ?? activeProfileId,
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

  /** Uploads sending chunks now, of every profile: what a restart for an update would cut short. */
  runningCount(): number {
    return this.running.size;
  }

  /** The uploads of one profile, newest first: another profile's are not its to see or resume. */
  list(profileId: string): KbPush[] {
    return [...this.pushes.values()]
      .filter((p) => (p.profileId ?? profileId) === profileId)
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((p) => this.view(p, profileId));
  }

  async start(input: {
    profileId: string;
    kbId: string;
    mode: KbMode;
    prompt?: string;
    rows: KbRow[];
    chunkSize: number;
  }): Promise<KbPush> {
    const valid = (await checkRows(input.rows, input.mode)).filter((r) => !r.over && !r.duplicate);
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
    void this.run(push, input.profileId);
    return this.view(push);
  }

  /** Sends the chunks not sent yet: an interrupted upload, or the chunks that failed. */
  resume(id: string, profileId: string): KbPush {
    const push = this.pushes.get(id);
    // Another profile's upload is as unknown here as it is in this profile's list.
    if (!push || (push.profileId ?? profileId) !== profileId)
      throw new StudioError({ code: 'STUDIO_PUSH_NOT_FOUND', message: 'That upload is no longer known.' });
    // An upload without an owner is sent with the key of the profile that resumes it, and is its from now on.
    push.profileId ??= profileId;
    for (const chunk of push.chunks) if (chunk.state === 'failed') chunk.state = 'pending';
    push.state = 'running';
    push.error = undefined;
    this.save(push);
    void this.run(push, profileId);
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

  private async run(push: StoredPush, profileId: string): Promise<void> {
    if (this.running.has(push.id)) return;
    this.running.add(push.id);
    try {
      let client: KbClient;
      try {
        client = this.clientFor(profileId);
      } catch (err) {
        this.refuse(push, profileId, StudioError.from(err).toView());
        return;
      }
      for (const chunk of push.chunks) {
        if (chunk.state === 'sent') continue;
        try {
          const { inserted } = await withRetry(
            retryPolicies.kbChunk,
            () =>
              client.pushData({
                kbId: push.kbId,
                mode: push.mode,
                ...(push.mode === 'qa' && push.prompt ? { prompt: push.prompt } : {}),
                data: chunk.rows,
              }),
            { sleep: this.sleep },
          );
          chunk.state = 'sent';
          chunk.inserted = inserted;
          this.save(push);
          this.onOutcome(profileId);
        } catch (err) {
          const error = StudioError.from(err);
          chunk.state = 'failed';
          // A definite refusal (a bad key, a foreign kb) would fail every chunk alike: it is not
          // "some chunks failed" but the upload refused, and said so.
          if (!error.retryable) {
            this.refuse(push, profileId, error.toView());
            return;
          }
          push.error = error.toView();
          this.save(push);
        }
      }
      push.state = push.chunks.some((c) => c.state === 'failed') ? 'failed' : 'done';
      this.save(push);
    } finally {
      this.running.delete(push.id);
    }
  }

  private refuse(push: StoredPush, profileId: string, error: StudioErrorView): void {
    push.state = 'refused';
    push.error = error;
    this.save(push);
    this.onOutcome(profileId, error);
  }
}
