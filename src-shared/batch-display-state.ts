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
 *    downloading (item k of n in the item-by-item fallback), or verifying.
 * 3. A batch the server no longer knows is "gone", whatever status it last had: it is not running.
 * 4. A failed download says so, with its reason.
 * 5. Outputs deleted on the server (expired, or deleted elsewhere) before any download: "expired".
 * 6. Otherwise the server's status.
 */
export type BatchDisplayState =
  | { kind: 'server'; status: BatchStatus }
  | { kind: 'gone' }
  | { kind: 'expired' }
  | { kind: 'waiting-slot' }
  | { kind: 'downloading'; item?: number; of?: number }
  | { kind: 'verifying'; item?: number; of?: number }
  | { kind: 'in-library'; images?: number }
  | { kind: 'download-failed'; error?: StudioErrorView };

export type BatchDisplayKind = BatchDisplayState['kind'];

/** Every kind, in the order the filter lists them. */
export const BATCH_DISPLAY_KINDS: readonly BatchDisplayKind[] = [
  'server',
  'waiting-slot',
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
      return { kind: 'waiting-slot' };
    case 'downloading':
      return progress?.phase === 'items' ? { kind: 'downloading', ...steps } : { kind: 'downloading' };
    case 'verifying':
      return progress?.phase === 'verifying' ? { kind: 'verifying', ...steps } : { kind: 'verifying' };
    default:
      break;
  }
  if (d.folder) return { kind: 'in-library', images: d.images };
  if (batch.goneOnServer) return { kind: 'gone' };
  if (d.state === 'failed') return { kind: 'download-failed', error: d.error };
  if (batch.status === 'output_deleted' || d.state === 'unavailable') return { kind: 'expired' };
  // An unknown status from a newer gateway reads as the nearest safe word: still in flight.
  const status = KNOWN_STATUSES.has(batch.status) ? (batch.status as BatchStatus) : 'running';
  return { kind: 'server', status };
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
