import type { Draft } from '../../src-shared/draft';
import type { StudioApi } from '../../src-shared/studio-api';

/**
 * Every write of a draft from this window, one at a time and in the order asked. Without it, an
 * autosave fired just before a split could reach the studio after the split deleted the draft
 * (browser mode sends calls as parallel HTTP requests) and bring the deleted draft back. A draft this
 * window deleted is never saved again: an autosave timer that fires late is dropped, not obeyed.
 */
export class DraftWriter {
  private queue: Promise<unknown> = Promise.resolve();
  private deleted = new Set<string>();

  constructor(private studio: Pick<StudioApi, 'call'>) {}

  private enqueue<T>(write: () => Promise<T>): Promise<T> {
    const done = this.queue.then(write, write);
    // A failed write is reported to its caller; it does not stop the writes after it.
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** Saves the draft unless it was deleted; answers whether it was saved. */
  save(draft: Draft): Promise<boolean> {
    return this.enqueue(async () => {
      if (this.deleted.has(draft.id)) return false;
      await this.studio.call('drafts.save', { draft });
      return true;
    });
  }

  remove(id: string): Promise<void> {
    // Marked at once, so a save asked for after this call is dropped even before the delete is sent.
    this.deleted.add(id);
    return this.enqueue(async () => {
      await this.studio.call('drafts.delete', { id });
    });
  }
}

const writers = new WeakMap<Pick<StudioApi, 'call'>, DraftWriter>();

/** One writer per connection to the studio, so every screen's draft writes share one order. */
export function draftWriterFor(studio: Pick<StudioApi, 'call'>): DraftWriter {
  let writer = writers.get(studio);
  if (!writer) writers.set(studio, (writer = new DraftWriter(studio)));
  return writer;
}
