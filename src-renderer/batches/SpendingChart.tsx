import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';
import { useMoney } from '../shared/money-format';
import { localTimeZone } from '../../src-shared/money';
import './spending.css';

/** One colour per figure, readable on the light and the dark theme alike. */
const SERIES = [
  { key: 'estimated', color: '#8a99b3' },
  { key: 'held', color: '#d9962b' },
  { key: 'actual', color: '#2f7de1' },
] as const;

/**
 * The active profile's spending per day, as main computes it from the batches' own estimate, hold
 * and actual: this component only draws. The last 30 days, or a range the user picks.
 */
export function SpendingChart() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const money = useMoney();
  const timeZone = useMemo(() => localTimeZone(), []);
  const [range, setRange] = useState<{ from: string; to: string }>({ from: '', to: '' });
  const query = {
    timeZone,
    ...(range.from ? { from: range.from } : {}),
    ...(range.to ? { to: range.to } : {}),
  };
  const spending = useStudioQuery('batches.spending', query);
  const dayLabel = useMemo(() => {
    const format = new Intl.DateTimeFormat(i18n.language, {
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    return (day: string) => format.format(new Date(`${day}T00:00:00Z`));
  }, [i18n.language]);
  const data = spending.data;
  const label: Record<string, string> = {
    estimated: t('spending.estimated'),
    held: t('spending.held'),
    actual: t('spending.actual'),
  };

  return (
    <section className="spending card" aria-labelledby={`${id}-title`} data-testid="spending">
      <div className="spending-head">
        <h2 id={`${id}-title`}>{t('spending.title')}</h2>
        <div className="spending-range">
          <label className="inline-field">
            <span>{t('spending.from')}</span>
            <input
              type="date"
              value={range.from || data?.from || ''}
              max={range.to || data?.to}
              onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
              data-testid="spending-from"
            />
          </label>
          <label className="inline-field">
            <span>{t('spending.to')}</span>
            <input
              type="date"
              value={range.to || data?.to || ''}
              min={range.from || data?.from}
              onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
              data-testid="spending-to"
            />
          </label>
          <button
            type="button"
            className="ghost small"
            disabled={!range.from && !range.to}
            onClick={() => setRange({ from: '', to: '' })}
          >
            {t('spending.last30')}
          </button>
        </div>
      </div>
      {spending.error && <ErrorNotice error={spending.error} />}
      {data && (
        <>
          <p data-testid="spending-total">
            {t('spending.total', {
              count: data.totals.batches,
              spent: money(data.totals.spent),
              from: dayLabel(data.from),
              to: dayLabel(data.to),
            })}
          </p>
          <figure
            className="spending-plot"
            aria-label={t('spending.chartLabel')}
            data-testid="spending-chart"
          >
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={data.days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} className="spending-grid" />
                <XAxis dataKey="day" tickFormatter={dayLabel} minTickGap={16} tick={{ fontSize: 11 }} />
                <YAxis width={56} tickFormatter={(v: number) => money(v)} tick={{ fontSize: 11 }} />
                <Tooltip
                  labelFormatter={(day) => dayLabel(String(day))}
                  formatter={(value, name) => [money(Number(value)), label[String(name)] ?? String(name)]}
                />
                {/* In the order of the money's life: estimated, held, then actual. */}
                <Legend itemSorter={null} formatter={(name: string) => label[name] ?? name} />
                {SERIES.map((s) => (
                  <Bar key={s.key} dataKey={s.key} name={s.key} fill={s.color} isAnimationActive={false} />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </figure>
          {data.totals.batches === 0 && <p className="muted">{t('spending.empty')}</p>}
        </>
      )}
      <p className="muted small" data-testid="spending-help">
        {t('spending.help', { zone: timeZone })}
      </p>
    </section>
  );
}
