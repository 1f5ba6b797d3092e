import { join } from 'node:path';
import type { EventHub } from '../host/event-hub';
import { openFolder } from '../host/open-folder';
import type { ExportDownloads } from '../library/export-downloads';
import { exportToFolder } from '../library/library-export';
import type { LibraryIndex } from '../library/library-index';
import { exportSelectionZip } from '../library/zip-export';
import type { FeatureHandlers } from './feature-handlers';

export interface LibraryHandlerDeps {
  library: LibraryIndex;
  events: EventHub;
  downloads: ExportDownloads;
  pickSavePath?: (defaultName: string) => Promise<string | null>;
  openPath?: (path: string) => Promise<void>;
}

/** The library: review of downloaded images, marks, and exports. */
export function libraryHandlers(deps: LibraryHandlerDeps): FeatureHandlers<'library'> {
  const { library, events } = deps;
  return {
    'library.query': (query) => library.query(query),
    'library.detail': ({ id }) => library.detail(id),
    'library.mark': async ({ ids, mark, stars }) => {
      const count = await library.mark(ids, { mark, stars });
      events.emit('library.changed', { reason: 'marks' });
      return count;
    },
    'library.exportZip': ({ ids }) =>
      exportSelectionZip(
        ids.map((id) => library.detail(id)),
        deps,
      ),
    'library.exportFolder': ({ ids, folder }) =>
      exportToFolder(
        ids.map((id) => library.detail(id)),
        folder,
      ),
    // An image lives in the images folder of its batch's (or day's) folder: that folder is shown.
    'library.reveal': ({ id }) => openFolder(join(library.detail(id).path, '..', '..'), deps.openPath),
  };
}
