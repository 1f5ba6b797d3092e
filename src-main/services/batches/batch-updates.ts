import type { EventHub } from '../dispatch/event-hub';
import type { BatchCosts } from './batch-costs';
import { isTerminal, toView, type TrackedBatch } from './tracked-batch';

type ChangeListener = (before: TrackedBatch | undefined, after: TrackedBatch) => void;

/**
 * Where every change to a batch leaves the main process, however it was learned (a poll, a sync,
 * a create answer, a download, a library folder, the user's action): as `batch.updated`, with the
 * profile's `costs.changed` when money moved and `batch.finished` when the batch just ended.
 */
export class BatchUpdates {
  private listeners: ChangeListener[] = [];

  constructor(
    private events: Pick<EventHub, 'emit'>,
    private costs: BatchCosts,
  ) {}

  /** Hears every change that goes through `changed` (the download scheduler starts downloads on it). */
  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  /**
   * Every change to a batch leaves as `batch.updated`, and its profile's cost totals follow as
   * `costs.changed` when the change moved them: windows keep their totals from events and never
   * ask for them per update (a poll that only moves `lastPolledMs` sends no totals at all).
   */
  updated(batch: TrackedBatch): void {
    this.events.emit('batch.updated', toView(batch));
    this.costs.pushIfMoved(batch.profileId);
  }

  /** A change of the batch's record: announced, heard by the listeners, and its end announced too. */
  changed(before: TrackedBatch | undefined, after: TrackedBatch): void {
    this.updated(after);
    for (const listener of this.listeners) listener(before, after);
    if (before && !isTerminal(before) && isTerminal(after)) this.events.emit('batch.finished', toView(after));
  }
}
