import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryFilter } from '../../../src-shared/library-view';
import { StudioError } from '../../../src-shared/studio-error';
import { WHAT_WORKED_ALL, WHAT_WORKED_MODEL, type WhatWorkedRow } from '../../../src-shared/what-worked';
import { useStudioQuery } from '../../app/studio-queries';
import { ContactSheetDialog } from '../ContactSheetDialog';
import { ErrorNotice } from '../../shell/ErrorNotice';
import { Modal } from '../../shell/Modal';
import { NextRoundDialog } from './NextRoundDialog';
import { useWhatWorkedExports } from './use-what-worked-exports';
import { ByPicker, MarksByPicker } from './WhatWorkedPickers';
import { WhatWorkedChart } from './WhatWorkedChart';
import { WhatWorkedTable } from './WhatWorkedTable';
import { closeWhatWorked, useWhatWorked } from './what-worked-store';
import { filterKey, rowFilter, rowKey, whatWorkedQuery } from './what-worked-format';
import './what-worked.css';

interface HostProps {
  /** The Library's filter: the view covers the images it shows (a batch, a run, a board, a search). */
  filter: LibraryFilter;
  /** Whether the library holds anyone else's marks: only then is "whose marks" offered. */
  teamMarks: boolean;
  /** Shows these images in the Library (a row opened). */
  onShow(filter: LibraryFilter): void;
}

/** Where "What worked" is drawn when open: once, on the Library screen. */
export function WhatWorkedHost(props: HostProps) {
  const open = useWhatWorked((s) => s.open);
  const back = useWhatWorked((s) => s.back);
  // Left with the Library (a draft opened in Compose): closed, not open again on coming back.
  useEffect(() => closeWhatWorked, []);
  if (!open) return null;
  // Opened again from a row it showed: the table it was opened from, not the row's.
  const filter = back && back.shown === filterKey(props.filter) ? back.filter : props.filter;
  return <WhatWorkedView {...props} filter={filter} />;
}

/**
 * "What worked" for the Library's filter: per value of the chosen variables (and model), the images,
 * the share picked, rejected and unrated, the mean stars, with counts and a 95 % interval; ranked by
 * the interval's low end so small samples do not win by luck. A table first, a chart beside it.
 */
function WhatWorkedView({ filter, teamMarks, onShow }: HostProps) {
  const { t } = useTranslation();
  const stored = useWhatWorked((s) => s.by);
  const marksBy = useWhatWorked((s) => s.marksBy);
  const [active, setActive] = useState(0);
  const [chosen, setChosen] = useState<Set<string>>();
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<StudioError>();
  const [drafting, setDrafting] = useState(false);
  const [sheetIds, setSheetIds] = useState<string[]>();
  // The best rows first (WHAT_WORKED_ROWS); all of them once asked for, until the grouping changes.
  const [all, setAll] = useState(false);
  const by = useMemo(() => stored ?? [WHAT_WORKED_MODEL], [stored]);
  const query = useMemo(() => whatWorkedQuery(filter, by, marksBy), [filter, by, marksBy]);
  // Asked again at each opening: marks made in the gallery since then count. No placeholder from
  // the last answer: its rows are by other names, and would be drawn under these columns.
  const result = useStudioQuery('library.whatWorked', all ? { ...query, limit: WHAT_WORKED_ALL } : query, {
    staleTime: 0,
  });
  const rows = useMemo(() => result.data?.rows ?? [], [result.data]);
  const variables = result.data?.variables ?? [WHAT_WORKED_MODEL];
  const exports = useWhatWorkedExports(query, { onMessage: setMessage, onError: setError });

  // First opened: by the first variable of the prompts, where they have any.
  useEffect(() => {
    if (stored || !result.data) return;
    const first = result.data.variables.find((v) => v !== WHAT_WORKED_MODEL);
    if (first) useWhatWorked.setState({ by: [first] });
  }, [stored, result.data]);

  // The winners default to the top ranked row, until the person ticks their own.
  const winners = chosen ?? new Set(rows.slice(0, 1).map((r) => rowKey(r, by)));
  const choose = (key: string) =>
    setChosen(() => {
      const next = new Set(winners);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const setBy = (next: string[]) => {
    useWhatWorked.setState({ by: next });
    setChosen(undefined);
    setActive(0);
    setAll(false);
  };
  const open = (row: WhatWorkedRow) => {
    const shown = rowFilter(query, row);
    useWhatWorked.setState({ open: false, back: { shown: filterKey(shown), filter } });
    onShow(shown);
  };
  const openSheet = () => void exports.pickedIds().then((ids) => ids && setSheetIds(ids));
  const data = result.data;

  return (
    <Modal
      className="what-worked"
      label={t('worked.title')}
      onClose={closeWhatWorked}
      testId="what-worked-view"
    >
      <div className="ww-bar">
        <h2>{t('worked.title')}</h2>
        {data && (
          <span className="muted" role="status" data-testid="what-worked-scope">
            {t('worked.scope', { count: data.images })}
            {data.unparted > 0 && ` · ${t('worked.unparted', { count: data.unparted })}`}
          </span>
        )}
        <button type="button" className="ww-close" onClick={closeWhatWorked}>
          {t('library.close')}
        </button>
      </div>
      <div className="ww-controls">
        <ByPicker variables={variables} by={by} onChange={setBy} />
        {teamMarks && (
          <MarksByPicker value={marksBy} onChange={(m) => useWhatWorked.setState({ marksBy: m })} />
        )}
        <div className="actions">
          <button
            type="button"
            className="primary"
            disabled={!rows.length}
            onClick={() => setDrafting(true)}
            data-testid="what-worked-new-draft"
          >
            {t('worked.newDraft')}
          </button>
          <button type="button" disabled={!rows.length} onClick={() => void exports.exportTable('csv')}>
            {t('worked.exportCsv')}
          </button>
          <button
            type="button"
            disabled={!rows.length}
            onClick={() => void exports.exportTable('xlsx')}
            data-testid="what-worked-export-xlsx"
          >
            {t('worked.exportXlsx')}
          </button>
          <button type="button" disabled={!rows.length} onClick={openSheet} data-testid="what-worked-sheet">
            {t('worked.sheet')}
          </button>
        </div>
      </div>
      <p className="muted ww-note">
        {t('worked.rankNote')} {t('worked.keys')}
      </p>
      {message && (
        <p className="notice" role="status" data-testid="what-worked-message">
          {message}
        </p>
      )}
      {(error ?? result.error) && <ErrorNotice error={StudioError.from(error ?? result.error).toView()} />}
      {data && !rows.length && <p className="empty-state">{t('worked.empty')}</p>}
      <div className="ww-body">
        <div className="ww-scroll">
          <WhatWorkedTable
            by={by}
            rows={rows}
            active={Math.min(active, Math.max(0, rows.length - 1))}
            onActive={setActive}
            chosen={winners}
            onChoose={choose}
            onOpen={open}
          />
          {data && data.more > 0 && (
            <p className="muted ww-more" data-testid="what-worked-more">
              {t('worked.more', { count: data.more })}{' '}
              <button type="button" onClick={() => setAll(true)}>
                {t('worked.showAll')}
              </button>
            </p>
          )}
        </div>
        {rows.length > 0 && <WhatWorkedChart by={by} rows={rows} active={active} />}
      </div>
      {drafting && (
        <NextRoundDialog
          query={query}
          by={by}
          chosen={rows.filter((r) => winners.has(rowKey(r, by)))}
          onClose={() => setDrafting(false)}
        />
      )}
      {sheetIds && (
        <ContactSheetDialog
          count={sheetIds.length}
          onExport={(options) => {
            setSheetIds(undefined);
            void exports.exportSheet(sheetIds, options);
          }}
          onClose={() => setSheetIds(undefined)}
        />
      )}
    </Modal>
  );
}
