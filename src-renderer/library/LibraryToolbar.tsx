import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactSheetOptions, LibraryFilter } from '../../src-shared/library-view';
import { StudioError } from '../../src-shared/studio-error';
import { useStudioMutation } from '../app/studio-queries';
import { askForText } from '../shell/confirm-store';
import { MenuButton, type MenuItem } from '../shell/ActionMenu';
import { ContextMenu } from '../shell/ContextMenu';
import { useCompareAcrossItem } from './CompareAcrossModels';
import { useLibraryContextMenu } from './library-context-menu';
import { ContactSheetDialog } from './ContactSheetDialog';
import { downloadPreparedExport } from './export-download';
import type { ReuseHandlers } from './Lightbox';
import { useLibraryItem } from './library-hooks';
import { selectionTargets, useSelection } from './library-selection';
import { marksWritten, type MarkPatch } from './library-windows';
import { StarRating } from './StarRating';
import { openSurvey } from './library-survey';
import { openWhatWorked } from './what-worked/what-worked-store';

/** Exports and knowledge-base pushes take at most this many images a call (the contract's limit). */
const ACTION_MAX = 20_000;

interface ToolbarProps {
  filter: LibraryFilter;
  total: number;
  onMark(ids: string[], change: MarkPatch): void;
  onCompare(ids: string[]): void;
  onMessage(message: string): void;
  onError(error: StudioError | undefined): void;
  /** Opens "Add to board" for these images. */
  onAddToBoard(ids: string[]): void;
  reuse: ReuseHandlers;
}

/** Marks, stars, compare, export, the knowledge base and the folder: on the selection, else the focused image. */
export function LibraryToolbar(props: ToolbarProps) {
  const { filter, total, onMark, onCompare, onMessage, onError, onAddToBoard, reuse } = props;
  const { t } = useTranslation();
  const client = useQueryClient();
  // Every write of the toolbar is a mutation, as on every other screen: its error and pending state
  // live there, and what it makes stale is named once.
  const calls = {
    exportZip: useStudioMutation('library.exportZip'),
    exportFolder: useStudioMutation('library.exportFolder'),
    exportSheet: useStudioMutation('library.exportContactSheet'),
    pushToKb: useStudioMutation('kb.pushFromLibrary', { invalidates: ['kb.pushes'] }),
    reveal: useStudioMutation('library.reveal'),
  };
  const selectedCount = useSelection((s) => s.selected.size);
  // Until a range's ids have arrived, an action would work on the wrong images.
  const resolving = useSelection((s) => s.resolving);
  const focus = useSelection((s) => s.focus);
  const focused = useLibraryItem(filter, total ? focus : undefined);
  const none = !total || resolving;
  const targets = () => selectionTargets({ client, filter });
  /** The images the contact sheet dialog is open for. */
  const [sheetIds, setSheetIds] = useState<string[]>();
  const single = focused && selectedCount <= 1 ? focused : undefined;

  /** Runs an action on the targets, within the contract's limit, with its outcome in words. */
  async function act(run: (ids: string[]) => Promise<string | undefined>) {
    const ids = targets();
    if (!ids.length) return;
    onError(undefined);
    if (ids.length > ACTION_MAX) {
      onMessage(t('library.tooMany', { count: ids.length, max: ACTION_MAX }));
      return;
    }
    try {
      await marksWritten();
      const message = await run(ids);
      if (message) onMessage(message);
    } catch (err) {
      onError(StudioError.from(err));
    }
  }

  const exportZip = () =>
    act(async (ids) => {
      const out = await calls.exportZip.mutateAsync({ ids });
      if (out.canceled) return undefined;
      if (out.downloadUrl) await downloadPreparedExport(out.downloadUrl, out.name);
      return t('library.exported', { count: out.images, path: out.path ?? out.name });
    });

  const exportFolder = () =>
    act(async (ids) => {
      const folder = await askForText(t('library.exportFolderPrompt'));
      if (!folder) return undefined;
      const out = await calls.exportFolder.mutateAsync({ ids, folder });
      return t('library.exported', { count: out.images, path: out.path });
    });

  const exportSheet = (ids: string[], options: ContactSheetOptions) =>
    act(async () => {
      setSheetIds(undefined);
      const out = await calls.exportSheet.mutateAsync({ ids, options });
      if (out.canceled) return undefined;
      if (out.downloadUrl) await downloadPreparedExport(out.downloadUrl, out.name);
      return t('sheet.exported', { count: out.images, pages: out.pages, path: out.path ?? out.name });
    });

  const pushToKb = () =>
    act(async (ids) => {
      const push = await calls.pushToKb.mutateAsync({ ids });
      return t('kb.sentPicks', { count: push.rows });
    });

  const across = useCompareAcrossItem(single?.id, t('run.compareAcross'));
  const more: MenuItem[] = [
    ...across,
    {
      id: 'zip',
      label: t('library.exportZip'),
      disabled: none,
      testId: 'library-export-zip',
      onSelect: () => void exportZip(),
    },
    {
      id: 'push-kb',
      label: t('kb.sendPicks'),
      disabled: none,
      testId: 'library-push-kb',
      onSelect: () => void pushToKb(),
    },
    { id: 'folder', label: t('library.exportFolder'), disabled: none, onSelect: () => void exportFolder() },
    {
      id: 'sheet',
      label: t('sheet.open'),
      disabled: none,
      testId: 'library-sheet',
      onSelect: () => setSheetIds(targets()),
    },
    ...(single
      ? [
          {
            id: 'reference',
            label: t('reuse.useAsReference'),
            testId: 'library-use-reference',
            onSelect: () => reuse.reference(single.id),
          },
          { id: 'regenerate', label: t('reuse.regenerate'), onSelect: () => reuse.regenerate(single.id) },
          { id: 'vary', label: t('reuse.vary'), onSelect: () => reuse.vary(single.id) },
        ]
      : []),
    ...(focused
      ? [
          {
            id: 'reveal',
            label: t('library.reveal'),
            onSelect: () =>
              void calls.reveal
                .mutateAsync({ id: focused.id })
                .then((r) => onMessage(t('library.revealed', { path: r.path })))
                .catch((err: unknown) => onError(StudioError.from(err))),
          },
        ]
      : []),
  ];
  // The right-click menu on an image: the marks first, then the same actions as "More".
  const context: MenuItem[] = [
    { id: 'pick', label: `${t('library.pick')} (P)`, onSelect: () => onMark(targets(), { mark: 'picked' }) },
    {
      id: 'reject',
      label: `${t('library.reject')} (X)`,
      onSelect: () => onMark(targets(), { mark: 'rejected' }),
    },
    {
      id: 'unmark',
      label: `${t('library.unmark')} (U)`,
      onSelect: () => onMark(targets(), { mark: null, stars: 0 }),
    },
    { id: 'board', label: `${t('boards.addTo')} (B)`, onSelect: () => onAddToBoard(targets()) },
    { id: 'survey', label: `${t('library.survey')} (N)`, onSelect: () => openSurvey(targets()) },
    ...more.map((item) => ({ ...item, testId: item.testId && `${item.testId}-context` })),
  ];
  const menuAt = useLibraryContextMenu((s) => s.at);

  return (
    <div className="actions lib-actions">
      <button type="button" onClick={() => onMark(targets(), { mark: 'picked' })} disabled={none}>
        {t('library.pick')} (P)
      </button>
      <button type="button" onClick={() => onMark(targets(), { mark: 'rejected' })} disabled={none}>
        {t('library.reject')} (X)
      </button>
      <button type="button" onClick={() => onMark(targets(), { mark: null, stars: 0 })} disabled={none}>
        {t('library.unmark')} (U)
      </button>
      <StarRating
        value={focused?.stars ?? 0}
        disabled={none}
        onChange={(stars) => onMark(targets(), { stars })}
      />
      <button
        type="button"
        onClick={() => onCompare(targets())}
        disabled={resolving || selectedCount < 2 || selectedCount > 4}
        title={t('library.compareHint')}
        data-testid="library-compare"
      >
        {t('library.compare')}
      </button>
      <button
        type="button"
        onClick={() => openSurvey(targets())}
        disabled={none}
        title={t('library.surveyHint')}
        data-testid="library-survey"
      >
        {t('library.survey')} (N)
      </button>
      <button
        type="button"
        onClick={() => onAddToBoard(targets())}
        disabled={none}
        data-testid="library-add-board"
      >
        {t('boards.addTo')} (B)
      </button>
      <button
        type="button"
        onClick={openWhatWorked}
        title={t('worked.openHint')}
        data-testid="what-worked-open"
      >
        {t('worked.open')} (W)
      </button>
      <MenuButton label={t('library.more')} items={more} testId="library-more" />
      {menuAt && (
        <ContextMenu
          key={`${menuAt.x},${menuAt.y}`}
          items={context}
          at={menuAt}
          label={t('library.imageMenu')}
          onClose={() => useLibraryContextMenu.setState({ at: undefined })}
          testId="library-context-menu"
        />
      )}
      {sheetIds && (
        <ContactSheetDialog
          count={sheetIds.length}
          onExport={(options) => void exportSheet(sheetIds, options)}
          onClose={() => setSheetIds(undefined)}
        />
      )}
    </div>
  );
}
