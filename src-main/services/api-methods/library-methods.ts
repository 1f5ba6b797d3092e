import { join } from 'node:path';
import type { EventHub } from '../dispatch/event-hub';
import { openFolder } from '../dispatch/open-folder';
import type { ExportDownloads } from '../library/export/export-downloads';
import { checkExportFolder } from '../library/export/export-folder';
import { exportToFolder } from '../library/export/library-export';
import type { LibraryCatalog } from '../library/catalog/library-catalog';
import { deliverExport, exportSelectionZip } from '../library/export/zip-export';
import { writeContactSheet } from '../contact-sheet/contact-sheet';
import { contactSheetLabels, contactSheetName } from '../contact-sheet/contact-sheet-labels';
import type { Language } from '../../../src-shared/settings';
import { translatorIn } from '../../../src-shared/i18n/translator';
import { WHAT_WORKED_ALL } from '../../../src-shared/what-worked';
import {
  whatWorkedFileName,
  whatWorkedSheetLine,
  whatWorkedTable,
  writeWhatWorkedTable,
} from '../library/export/what-worked-export';
import type { FeatureHandlers } from './feature-methods';

export interface LibraryHandlerDeps {
  library: LibraryCatalog;
  events: EventHub;
  downloads: ExportDownloads;
  pickSavePath?: (defaultName: string) => Promise<string | null>;
  openPath?: (path: string) => Promise<void>;
  /** The studio's language: a contact sheet prints its words in it. */
  language: () => Language;
  /** This studio's person's name: a contact sheet says who picked what. */
  personName: () => string;
}

/** The library: review of downloaded images, marks, and exports. */
export function libraryHandlers(deps: LibraryHandlerDeps): FeatureHandlers<'library'> {
  const { library, events } = deps;
  const details = (ids: string[]) => Promise.all(ids.map((id) => library.detail(id)));
  return {
    'library.query': (query) => library.query(query),
    'library.overview': () => library.overview(),
    'library.ids': (query) => library.ids(query),
    'library.position': async (query) => ({ index: await library.position(query) }),
    'library.detail': ({ id }) => library.detail(id),
    'library.whatWorked': (query) => library.whatWorked(query),
    'library.lineage': ({ id }) => library.lineage(id),
    'library.acrossModels': ({ id }) => library.acrossModels(id),
    'library.marksOf': ({ ids }) => library.marksOf(ids),
    'library.mark': async ({ ids, mark, stars }) => {
      const marks = await library.mark(ids, { mark, stars });
      // The event carries the marks themselves: open galleries change those cells, nothing is fetched.
      events.emit('library.changed', { reason: 'marks', marks });
      return marks.length;
    },
    'library.exportZip': async ({ ids }) => exportSelectionZip(await details(ids), deps),
    'library.exportContactSheet': async ({ ids, options, whatWorked }) => {
      const labels = contactSheetLabels(deps.language(), deps.personName());
      const images = await details(ids);
      const name = contactSheetName();
      // "What worked" for the filter the picks came from: its top rows as a line at the foot of the first page.
      const summary = whatWorked
        ? whatWorkedSheetLine(await library.whatWorked(whatWorked), whatWorked.by, deps.language())
        : undefined;
      const sheet = { ...options, title: options.title || labels.defaultTitle, summary };
      const out = await deliverExport(name, (file) => writeContactSheet(images, sheet, labels, file), deps);
      return {
        name,
        images: out.result?.images ?? 0,
        pages: out.result?.pages ?? 0,
        canceled: out.canceled,
        path: out.path,
        downloadUrl: out.downloadUrl,
      };
    },
    'library.exportWhatWorked': async ({ query, format }) => {
      const language = deps.language();
      const table = whatWorkedTable(
        await library.whatWorked({ ...query, limit: WHAT_WORKED_ALL }),
        query.by,
        language,
      );
      const name = whatWorkedFileName(format);
      const title = translatorIn(language)('worked.title');
      const out = await deliverExport(name, (file) => writeWhatWorkedTable(table, format, title, file), deps);
      return {
        name,
        rows: table.length - 1,
        canceled: out.canceled,
        path: out.path,
        downloadUrl: out.downloadUrl,
      };
    },
    // The folder is checked before the images are read: a path that cannot be used is refused whatever the ids.
    'library.exportFolder': async ({ ids, folder }) => {
      const target = checkExportFolder(folder);
      return exportToFolder(await details(ids), target);
    },
    // An image lives in the images folder of its batch's (or day's) folder: that folder is shown.
    'library.reveal': async ({ id }) =>
      openFolder(join((await library.detail(id)).path, '..', '..'), deps.openPath),
  };
}
