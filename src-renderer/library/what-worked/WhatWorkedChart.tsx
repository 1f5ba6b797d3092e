import { useTranslation } from 'react-i18next';
import type { WhatWorkedRow } from '../../../src-shared/what-worked';
import { percent, rowKey } from './what-worked-format';

const ROW = 20;
const LABEL = 110;
const PLOT = 170;
/** Room right of the plot for the "100 %" tick, centred on its end. */
const RIGHT = 22;
const TOP = 18;
/** More bars than this would be too thin to read; the table has them all. */
const MAX_BARS = 24;

/** Text that fits a label: long values are cut with an ellipsis (the table has them whole). */
const fit = (text: string, max = 16) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Beside the table: each row's pick rate as a bar, its 95 % interval as a whisker, in the table's
 * order. Hand-drawn SVG: a few dozen shapes need no charting library.
 */
export function WhatWorkedChart({
  by,
  rows,
  active,
}: {
  by: string[];
  rows: WhatWorkedRow[];
  active: number;
}) {
  const { t } = useTranslation();
  const shown = rows.slice(0, MAX_BARS);
  const height = TOP + shown.length * ROW + 4;
  const x = (share: number) => LABEL + share * PLOT;
  return (
    <figure className="ww-chart" data-testid="what-worked-chart">
      <figcaption className="muted">{t('worked.chart')}</figcaption>
      <svg
        width={LABEL + PLOT + RIGHT}
        height={height}
        role="img"
        aria-label={t('worked.chart')}
        viewBox={`0 0 ${LABEL + PLOT + RIGHT} ${height}`}
      >
        {[0, 0.5, 1].map((tick) => (
          <g key={tick}>
            <line x1={x(tick)} x2={x(tick)} y1={TOP - 4} y2={height} className="ww-grid" />
            <text x={x(tick)} y={TOP - 7} textAnchor="middle" className="ww-tick">
              {percent(tick)} %
            </text>
          </g>
        ))}
        {shown.map((row, i) => {
          const y = TOP + i * ROW;
          const share = row.images ? row.picked / row.images : 0;
          const label = by.map((name) => row.values[name] || '–').join(' · ');
          return (
            <g key={rowKey(row, by)} className={i === active ? 'active' : undefined}>
              <title>
                {`${label}: ${t('worked.pickedOf', {
                  picked: row.picked,
                  images: row.images,
                  low: percent(row.pickInterval.low),
                  high: percent(row.pickInterval.high),
                })}`}
              </title>
              <text x={LABEL - 6} y={y + ROW / 2 + 4} textAnchor="end" className="ww-label">
                {fit(label)}
              </text>
              <rect x={x(0)} y={y + 4} width={share * PLOT} height={ROW - 8} className="ww-chart-bar" />
              <line
                x1={x(row.pickInterval.low)}
                x2={x(row.pickInterval.high)}
                y1={y + ROW / 2}
                y2={y + ROW / 2}
                className="ww-whisker"
              />
              {[row.pickInterval.low, row.pickInterval.high].map((end, n) => (
                <line key={n} x1={x(end)} x2={x(end)} y1={y + 5} y2={y + ROW - 5} className="ww-whisker" />
              ))}
            </g>
          );
        })}
      </svg>
      {rows.length > MAX_BARS && (
        <p className="muted">{t('worked.chartMore', { shown: MAX_BARS, total: rows.length })}</p>
      )}
    </figure>
  );
}
