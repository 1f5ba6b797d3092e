import { useTranslation } from 'react-i18next';
import type { ContactSheetOptions } from '../../../src-shared/library-view';
import type { WhatWorkedQuery } from '../../../src-shared/what-worked';
import { useStudio } from '../../app/studio-context';
import { useStudioMutation } from '../../app/studio-queries';
import { feedbackRunner, type ActionFeedback } from '../../shared/action-feedback';
import { downloadPreparedExport } from '../export-download';
import { pickedFilter } from './what-worked-format';

/** A contact sheet takes at most this many images a call (the contract's limit). */
const SHEET_MAX = 20_000;

/**
 * The table as CSV or XLSX, and a contact sheet of the picked images with the table's top rows on
 * its first page: delivered like every export (the save dialog on the desktop, a one-time download
 * in browser mode), never as bytes in JSON.
 */
export function useWhatWorkedExports(query: WhatWorkedQuery, feedback: ActionFeedback) {
  const { t } = useTranslation();
  const studio = useStudio();
  const table = useStudioMutation('library.exportWhatWorked');
  const sheet = useStudioMutation('library.exportContactSheet');

  const run = feedbackRunner(feedback);

  return {
    exportTable: (format: 'csv' | 'xlsx') =>
      run(async () => {
        const out = await table.mutateAsync({ query, format });
        if (out.canceled) return undefined;
        if (out.downloadUrl) await downloadPreparedExport(out.downloadUrl, out.name);
        return t('worked.exported', { count: out.rows, path: out.path ?? out.name });
      }),
    /** The picked images under the view's filter and marks; none picked is said, not exported. */
    pickedIds: async (): Promise<string[] | undefined> => {
      const ids = await studio.call('library.ids', pickedFilter(query));
      if (!ids.length) feedback.onMessage(t('worked.sheetNonePicked'));
      else if (ids.length > SHEET_MAX)
        feedback.onMessage(t('library.tooMany', { count: ids.length, max: SHEET_MAX }));
      else return ids;
      return undefined;
    },
    exportSheet: (ids: string[], options: ContactSheetOptions) =>
      run(async () => {
        const out = await sheet.mutateAsync({ ids, options, whatWorked: query });
        if (out.canceled) return undefined;
        if (out.downloadUrl) await downloadPreparedExport(out.downloadUrl, out.name);
        return t('sheet.exported', { count: out.images, pages: out.pages, path: out.path ?? out.name });
      }),
  };
}
