import type { ImageReuse } from '../reuse/image-reuse';
import type { FeatureHandlers } from './feature-methods';

/** Reusing an image: as a reference or input, and as a recipe to make again. */
export function reuseHandlers(reuse: ImageReuse): FeatureHandlers<'reuse'> {
  return {
    'reuse.reference': (from) =>
      'libraryId' in from
        ? reuse.fromLibrary(from.libraryId)
        : 'realtimeJobId' in from
          ? reuse.fromRealtime(from.realtimeJobId)
          : reuse.fromBatchItem(from.batchId, from.customId),
    'reuse.recipe': ({ id }) => reuse.recipe(id),
  };
}
