import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft, ReferenceImage } from '../../src-shared/draft';
import { StudioError } from '../../src-shared/studio-error';
import { useStudio } from '../app/studio-context';
import { draftActions } from '../shared/draft-actions';
import { imageFiles, uploadReferences } from '../shared/reference-upload';
import { useFileDrop } from './use-file-drop';

/**
 * Reference images coming in: dropped on the screen or on a row, picked in a file dialog, or pasted.
 * Each goes to main (which keeps it by content and converts odd formats) and into the draft; what
 * came of it is told through `say` (conversions) and kept here (too large, failed).
 */
export function useReferenceDrop(
  change: (update: (d: Draft) => Draft) => void,
  say: (notices: string[]) => void,
) {
  const { t } = useTranslation();
  const studio = useStudio();
  const [oversize, setOversize] = useState<ReferenceImage[]>([]);
  const [error, setError] = useState<StudioError>();
  // The row a file dialog was opened for; used once, by the pick it was opened for.
  const pickRow = useRef<number | undefined>(undefined);

  const addFiles = useCallback(
    async (files: File[], row?: number) => {
      const images = imageFiles(files);
      if (!images.length) return;
      const outcome = await uploadReferences(studio, images);
      if (outcome.added.length) change(draftActions.addReferences(outcome.added, row));
      say(outcome.converted.map((name) => t('compose.converted', { name })));
      setOversize(outcome.oversize);
      if (outcome.errors[0])
        setError(
          new StudioError({
            code: outcome.errors[0].code,
            message: `${outcome.errors[0].name}: ${outcome.errors[0].message}`,
          }),
        );
    },
    [studio, change, say, t],
  );

  const dropzone = useFileDrop(
    // Every drop comes here, also one on a row (so the screen's highlight always ends): a row
    // takes it for itself, anywhere else it goes to every row. Only a file dialog's pick uses pickRow.
    (files, drop) => {
      const picked = pickRow.current;
      pickRow.current = undefined;
      if (drop) {
        const onRow = (drop.target as Element | null)?.closest?.<HTMLElement>('[data-drop-row]');
        void addFiles(files, onRow ? Number(onRow.dataset.dropRow) : undefined);
      } else {
        void addFiles(files, picked);
      }
    },
    () => {
      pickRow.current = undefined;
    },
  );

  const pickFiles = useCallback(
    (row?: number) => {
      pickRow.current = row;
      dropzone.open();
    },
    [dropzone],
  );

  const onGridFiles = useCallback((files: File[], row?: number) => void addFiles(files, row), [addFiles]);

  /** An oversize reference the user had made smaller leaves the list. */
  const downscaled = useCallback((id: string) => setOversize((list) => list.filter((r) => r.id !== id)), []);

  return { dropzone, pickFiles, onGridFiles, oversize, downscaled, error };
}
