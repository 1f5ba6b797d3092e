import type { BatchView, SubmissionView } from '../../../src-shared/batch-view';
import type { WorkInProgress } from '../../../src-shared/updates';

/** Where the studio's running work is read from: the same state the windows show. */
export interface WorkSources {
  /** Every profile's batches: a download of another profile's batch is cut short by a restart too. */
  batches(): readonly Pick<BatchView, 'download'>[];
  submissions(): readonly Pick<SubmissionView, 'state'>[];
  /** Knowledge-base uploads sending chunks now. */
  kbUploadsRunning(): number;
}

/** Download states in which a restart would throw away bytes already fetched or being checked. */
const DOWNLOADING = new Set(['queued', 'downloading', 'verifying']);

/**
 * What a restart would interrupt now. A submission `sending` has a request on the wire: its outcome
 * would become unknown (the next start asks the gateway again, but it costs the person a wait).
 */
export function workInProgress(sources: WorkSources): WorkInProgress {
  return {
    downloads: sources.batches().filter((b) => DOWNLOADING.has(b.download.state)).length,
    submissions: sources.submissions().filter((s) => s.state === 'sending').length,
    kbUploads: sources.kbUploadsRunning(),
  };
}
