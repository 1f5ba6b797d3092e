import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WHAT_WORKED_MODEL, type WhatWorkedRow } from '../../../src-shared/what-worked';
import { keyHandler, WHAT_WORKED_SHORTCUTS } from '../../shell/shortcuts';
import { percent, rowKey } from './what-worked-format';

interface Props {
  by: string[];
  rows: WhatWorkedRow[];
  /** The focused row: the one Enter opens and Space chooses. */
  active: number;
  onActive(index: number): void;
  chosen: ReadonlySet<string>;
  onChoose(key: string): void;
  onOpen(row: WhatWorkedRow): void;
}

/** A value as the table shows it: '' is an image without that part. */
function ValueText({ name, value }: { name: string; value: string }) {
  const { t } = useTranslation();
  if (value) return <>{value}</>;
  return <span className="muted">{name === WHAT_WORKED_MODEL ? '–' : t('worked.none')}</span>;
}

/**
 * The table of "What worked", one row per value (or combination): the counts first, then the
 * shares with their 95 % interval, so 2 of 3 never reads as a sure 67 %. The focus moves between
 * rows with the arrows (one row in the Tab order); Enter opens the row's images, Space makes it a
 * winner for the next draft.
 */
export function WhatWorkedTable({ by, rows, active, onActive, chosen, onChoose, onOpen }: Props) {
  const { t } = useTranslation();
  const body = useRef<HTMLTableSectionElement>(null);
  // The focus follows the active row once it is in the table (not when the view opens).
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    body.current?.querySelectorAll<HTMLElement>('tr')[active]?.focus();
  }, [active]);
  const move = (to: number) => {
    moved.current = true;
    onActive(Math.max(0, Math.min(rows.length - 1, to)));
  };
  const onKey = (e: KeyboardEvent) => {
    const row = rows[active];
    keyHandler(WHAT_WORKED_SHORTCUTS, {
      rowMove: (k) => move(active + (k.key === 'ArrowUp' ? -1 : 1)),
      rowFirstLast: (k) => move(k.key === 'Home' ? 0 : rows.length - 1),
      rowOpen: () => (row ? onOpen(row) : false),
      rowChoose: () => (row ? onChoose(rowKey(row, by)) : false),
    })(e);
  };

  return (
    <table className="ww-table" data-testid="what-worked-table">
      <thead>
        <tr>
          <th scope="col" className="ww-choose">
            {t('worked.colChoose')}
          </th>
          {by.map((name) => (
            <th scope="col" key={name}>
              {name === WHAT_WORKED_MODEL ? t('worked.model') : name}
            </th>
          ))}
          <th scope="col" className="num">
            {t('worked.colImages')}
          </th>
          <th scope="col">{t('worked.colPicked')}</th>
          <th scope="col" className="num">
            {t('worked.colRejected')}
          </th>
          <th scope="col" className="num">
            {t('worked.colUnrated')}
          </th>
          <th scope="col" className="num">
            {t('worked.colStars')}
          </th>
        </tr>
      </thead>
      <tbody ref={body} onKeyDown={onKey}>
        {rows.map((row, i) => {
          const key = rowKey(row, by);
          const share = row.images ? row.picked / row.images : 0;
          return (
            <tr
              key={key}
              tabIndex={i === active ? 0 : -1}
              className={i === active ? 'active' : undefined}
              data-chosen={chosen.has(key)}
              onFocus={() => i !== active && onActive(i)}
              onDoubleClick={() => onOpen(row)}
              data-testid="what-worked-row"
              data-values={key}
            >
              <td className="ww-choose">
                <input
                  type="checkbox"
                  tabIndex={-1}
                  checked={chosen.has(key)}
                  onChange={() => onChoose(key)}
                  aria-label={t('worked.chooseRow')}
                  data-testid="what-worked-choose"
                />
              </td>
              {by.map((name, n) => (
                <td key={name} className="ww-value">
                  {n === 0 ? (
                    <button
                      type="button"
                      className="link"
                      tabIndex={-1}
                      title={t('worked.openRow', { count: row.images })}
                      onClick={() => onOpen(row)}
                    >
                      <ValueText name={name} value={row.values[name] ?? ''} />
                    </button>
                  ) : (
                    <ValueText name={name} value={row.values[name] ?? ''} />
                  )}
                </td>
              ))}
              <td className="num" data-testid="what-worked-images">
                {row.images}
              </td>
              <td data-testid="what-worked-picked">
                <span className="ww-share" style={{ ['--share' as string]: share }} aria-hidden />
                {t('worked.pickedOf', {
                  picked: row.picked,
                  images: row.images,
                  low: percent(row.pickInterval.low),
                  high: percent(row.pickInterval.high),
                })}
              </td>
              <td className="num" data-testid="what-worked-rejected">
                {t('worked.countShare', {
                  value: row.rejected,
                  share: percent(row.rejected / (row.images || 1)),
                })}
              </td>
              <td className="num" data-testid="what-worked-unrated">
                {row.unrated}
              </td>
              <td className="num">
                {row.meanStars === null
                  ? '–'
                  : t('worked.stars', { mean: row.meanStars.toFixed(1), starred: row.starred })}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
