import { logCaught } from '../log/studio-log';
import type { EventHub } from '../host/event-hub';
import type { LibraryCatalog } from './library-catalog';
import type { LibraryWatch } from './library-watch';

/**
 * Keeps the catalog in step with the folders: a finished download is read at once, a new
 * library folder in Settings gets its own catalog and watch, and the start checks every folder
 * (by time and size) before watching. Each sync that changes something tells the window itself.
 */
export function keepCatalogCurrent(events: EventHub, catalog: LibraryCatalog, watch: LibraryWatch): void {
  const sync = (why: string) =>
    catalog.sync().catch((err: unknown) => logCaught(`library sync (${why})`, err));
  events.subscribe((event, payload) => {
    if (event === 'batch.updated' && (payload as { download: { state: string } }).download.state === 'done')
      void sync('download');
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
