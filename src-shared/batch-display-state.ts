import { BATCH_STATUSES, type BatchStatus, type BatchView, type DownloadProgress } from './batch-view';
import type { StudioErrorView } from './studio-error';

/**
 * What a designer is told about one batch, derived in this one place from the server's status and
 * the studio's own state together, so that the card, the detail badge and the filters never disagree.
 *
 * Precedence, and why:
 * 1. A folder in the library is the user's images: it stays "in the library" whatever the server
 *    later says (expired, deleted, gone), unless a new download of it is under way.
 * 2. A download in progress says which step it is on: waiting for the account's one download slot,
 *    being downloaded by another studio sharing the library, downloading (item k of n in the
 *    item-by-item fallback), or verifying.
 * 3. A batch the server no longer knows is "gone", whatever status it last had: it is not running.
 * 4. A failed download says so, with its reason, and when the studio will try again (if it will).
 * 5. Outputs deleted on the server (expired, or deleted elsewhere) before any download: "expired".
 * 6. Otherwise the server's status.
 */
export type BatchDisplayState =
  | { kind: 'server'; status: BatchStatus }
  | { kind: 'gone' }
  | { kind: 'expired' }
  | { kind: 'waiting-slot' }
  | { kind: 'downloading-elsewhere' }
  | { kind: 'downloading'; item?: number; of?: number }
  | { kind: 'verifying'; item?: number; of?: number }
  | { kind: 'in-library'; images?: number; missing?: number }
  | { kind: 'download-failed'; error?: StudioErrorView; retryAt?: number };

export type BatchDisplayKind = BatchDisplayState['kind'];

/** Every kind, in the order the filter lists them. */
export const BATCH_DISPLAY_KINDS: readonly BatchDisplayKind[] = [
  'server',
  'waiting-slot',
  'downloading-elsewhere',
  'downloading',
  'verifying',
  'in-library',
  'download-failed',
  'expired',
  'gone',
];

/** The parts of a batch the derivation reads: the view the renderer has is enough. */
export type DisplayInput = Pick<BatchView, 'status' | 'goneOnServer' | 'download'>;

const KNOWN_STATUSES = new Set<string>(BATCH_STATUSES);

/** `progress` is the last download.progress event for this batch, when one came. */
export function batchDisplayState(batch: DisplayInput, progress?: DownloadProgress): BatchDisplayState {
  const d = batch.download;
  const steps =
    progress?.imagesTotal !== undefined ? { item: progress.images, of: progress.imagesTotal } : {};
  switch (d.state) {
    case 'queued':
      return d.elsewhere ? { kind: 'downloading-elsewhere' } : { kind: 'waiting-slot' };
    case 'downloading':
      return progress?.phase === 'items' ? { kind: 'downloading', ...steps } : { kind: 'downloading' };
    case 'verifying':
      return progress?.phase === 'verifying' ? { kind: 'verifying', ...steps } : { kind: 'verifying' };
    default:
      break;
  }
  if (inLibrary(batch))
    return { kind: 'in-library', images: d.images, ...(d.missing ? { missing: d.missing } : {}) };
  if (batch.goneOnServer) return { kind: 'gone' };
  if (d.state === 'failed')
    return {
      kind: 'download-failed',
      error: d.error,
      ...(d.nextRetryAt !== undefined ? { retryAt: d.nextRetryAt } : {}),
    };
  if (batch.status === 'output_deleted' || d.state === 'unavailable') return { kind: 'expired' };
  // An unknown status from a newer gateway reads as the nearest safe word: still in flight.
  const status = KNOWN_STATUSES.has(batch.status) ? (batch.status as BatchStatus) : 'running';
  return { kind: 'server', status };
}

/**
 * The words for a failed download: "retrying at 14:05" (the time in the reader's language, through
 * i18next's datetime format) only when a retry is really set; otherwise that it failed and that
 * Download now tries again.
 */
export function failedDownloadMessage(state: Extract<BatchDisplayState, { kind: 'download-failed' }>):
  | { key: 'batches.stateDownloadFailed' }
  | {
      key: 'batches.stateDownloadFailedRetryAt';
      values: { time: Date; formatParams: { time: Intl.DateTimeFormatOptions } };
    } {
  if (state.retryAt === undefined) return { key: 'batches.stateDownloadFailed' };
  return {
    key: 'batches.stateDownloadFailedRetryAt',
    values: {
      time: new Date(state.retryAt),
      formatParams: { time: { hour: 'numeric', minute: '2-digit' } },
    },
  };
}

/**
 * Whether the batch has a folder in the library: rule 1 above. Stays true through a failed or
 * running re-download of it; turns false only when main finds the folder gone.
 */
export function inLibrary(batch: Pick<DisplayInput, 'download'>): boolean {
  return !!batch.download.folder;
}

/**
 * What "Download now" would do for a batch, so the actions offer only what can happen:
 * - `download`: not in the library, and the server has its outputs;
 * - `fetch-missing`: in the library, its folder lacks `missing` images the server still has;
 * - `replace`: in the library and whole; downloading again replaces the folder (asked first);
 * - `busy`: a download of it is under way;
 * - `none`: nothing to download (the server no longer has the batch or its outputs, or the
 *   batch is not completed).
 */
export type DownloadOffer =
  | { kind: 'download' }
  | { kind: 'fetch-missing'; missing: number }
  | { kind: 'replace'; images: number }
  | { kind: 'busy' }
  | { kind: 'none' };

export function downloadOffer(batch: DisplayInput): DownloadOffer {
  const d = batch.download;
  if (d.state === 'queued' || d.state === 'downloading' || d.state === 'verifying') return { kind: 'busy' };
  const onServer = batch.status === 'completed' && !batch.goneOnServer && d.state !== 'unavailable';
  if (!onServer) return { kind: 'none' };
  if (!inLibrary(batch)) return { kind: 'download' };
  if (d.missing) return { kind: 'fetch-missing', missing: d.missing };
  return { kind: 'replace', images: d.images ?? 0 };
}

/** The filter value of a batch: its kind, or for a server state the status itself. */
export function displayFilterValue(state: BatchDisplayState): string {
  return state.kind === 'server' ? state.status : state.kind;
}

/**
 * Whether a batch passes the Batches screen's state filter. A server status matches batches the
 * server still has in that status, whatever the studio did with them (a completed batch in the
 * library is still completed); any other value matches that display kind.
 */
export function matchesStateFilter(batch: DisplayInput, state: BatchDisplayState, value: string): boolean {
  if (!value) return true;
  if (KNOWN_STATUSES.has(value)) return !batch.goneOnServer && batch.status === value;
  return state.kind === value;
}

/** The filter's choices besides the server statuses: what the studio knows on top of them. */
export const LOCAL_FILTER_KINDS: readonly BatchDisplayKind[] = BATCH_DISPLAY_KINDS.filter(
  (k) => k !== 'server',
);
