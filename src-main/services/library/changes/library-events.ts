import type { LibraryChanged } from '../../../../src-shared/library-view';
import { logCaught } from '../../log/studio-log';
import type { EventHub } from '../../dispatch/event-hub';
import { splitId } from '../catalog/catalog-ids';
import type { LibraryCatalog } from '../catalog/library-catalog';
import type { LibraryChanges } from './library-changes';
import type { LibraryWatch } from './library-watch';

/**
 * Keeps the catalog in step with the folders: a finished download is read at once, a new
 * library folder in Settings gets its own catalog and watch, and the start checks every folder
 * (by time and size) before watching. Each sync that changes something tells the window itself.
 */
export function keepCatalogCurrent(
  events: EventHub,
  catalog: LibraryCatalog,
  watch: LibraryWatch,
  changes: LibraryChanges,
): void {
  const sync = (why: string) =>
    catalog.sync().catch((err: unknown) => logCaught(`library sync (${why})`, err));
  // A batch's update says `done` again and again (polls, renames): a folder is named in the
  // change journal once per download finished while this studio runs.
  const started = Date.now();
  const published = new Map<string, number>();
  events.subscribe((event, payload) => {
    // Marks written (each folder's own file of this person): other studios on the library are told.
    if (event === 'library.changed' && (payload as LibraryChanged).reason === 'marks')
      for (const folder of new Set((payload as LibraryChanged).marks?.map((m) => splitId(m.id)?.[0])))
        if (folder) changes.noteFolder(folder);
    const batch = payload as {
      id?: string;
      download?: { state: string; folder?: string; completedAt?: number };
    };
    const download = batch.download;
    if (event === 'batch.updated' && download?.state === 'done') {
      const at = download.completedAt ?? 0;
      if (batch.id && download.folder && at >= started && published.get(batch.id) !== at) {
        published.set(batch.id, at);
        changes.noteFolder(download.folder);
      }
      void sync('download');
    }
    if (event === 'settings.changed') {
      watch.start();
      void sync('library folder');
    }
  });
  void sync('start').finally(() => {
    watch.start();
    try {
      catalog.warm();
    } catch (err) {
      logCaught('library catalog warm-up', err);
    }
  });
}
