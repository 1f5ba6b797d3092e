import type { Collections } from '../library/folders/boards';
import type { LibraryCatalog } from '../library/catalog/library-catalog';
import type { FeatureHandlers } from './feature-methods';

/**
 * Collections (boards): each change is written to collections.json, then the catalog reads it, so
 * the answer comes once the Library's filter and counts already show the change.
 */
export function collectionHandlers(
  collections: Collections,
  library: LibraryCatalog,
  /** Boards changed: the studio's change journal says so, for other studios on the library. */
  noteBoards: () => void = () => undefined,
): FeatureHandlers<'collections'> {
  const written = async <T>(change: Promise<T>): Promise<T> => {
    const result = await change;
    noteBoards();
    await library.sync();
    return result;
  };
  return {
    'collections.create': async ({ name, ids }) => {
      const made = await written(collections.create(name, ids));
      return { id: made.id, name: made.name };
    },
    'collections.rename': async ({ id, name }) => {
      await written(collections.rename(id, name));
      return null;
    },
    'collections.delete': async ({ id }) => {
      await written(collections.remove(id));
      return null;
    },
    'collections.setImages': ({ id, ids, present }) => written(collections.setImages(id, ids, present)),
  };
}
