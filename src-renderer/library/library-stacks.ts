import type { StackLevel } from '../../src-shared/image-stacks';
import type { LibraryFilter, LibraryImage } from '../../src-shared/library-view';
import type { StudioApi } from '../../src-shared/studio-api';
import { chooseOne } from './library-choice';
import type { MarkFn } from './library-hooks';

/** The filter that lists one stack's images, whatever the gallery was filtered by. */
export const stackFilter = (leader: string, level: StackLevel = 'near'): LibraryFilter => ({
  review: 'any',
  minStars: 0,
  sort: 'newest',
  stackOf: leader,
  ...(level === 'similar' ? { stackLevel: level } : {}),
});

/**
 * "Keep this one, reject the rest of the stack": this image picked, the others of its stack
 * rejected (one key, as Lightroom's Assisted Culling proposes the best of each stack). Answers how
 * many were rejected; nothing happens to an image with no stack.
 */
export async function keepBest(studio: StudioApi, item: LibraryImage, onMark: MarkFn): Promise<number> {
  if (!item.stack) return 0;
  const members = await studio.call('library.ids', stackFilter(item.stack.leader, item.stack.level));
  // One step: Ctrl+Z puts the whole stack back as it was.
  return chooseOne(onMark, item.id, members, 'rejected');
}
