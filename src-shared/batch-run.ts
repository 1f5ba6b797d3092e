/**
 * A run: one draft sent to several models at once, one batch per model. The run's id travels in
 * each batch's metadata under this key, so the batches find each other again in Batches, in the
 * library, and on another machine that syncs them from the server.
 */
export const RUN_METADATA_KEY = 'run_id';

/** The most models one run sends to. */
export const RUN_MAX_MODELS = 6;

/** The run a batch (or its draft) belongs to, from its metadata. */
export function runIdOf(metadata: Record<string, unknown> | null | undefined): string | undefined {
  const value = metadata?.[RUN_METADATA_KEY];
  return typeof value === 'string' && value ? value : undefined;
}
