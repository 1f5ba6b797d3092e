import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

type Amount = number | null | undefined;

export interface Money {
  /** One amount: at least two decimals, at most four (unit prices are fractions of a unit). */
  (amount: Amount): string;
  /**
   * Amounts read side by side (estimate · hold · actual): one precision for all, the finest any of
   * them needs, so 0.2535 and 0.234 read 0.2535 and 0.2340.
   */
  line<K extends string>(amounts: Record<K, Amount>): Record<K, string>;
}

/** The decimals an amount needs, from 2 to 4: 0.25 needs 2, 0.234 needs 3. */
export function decimalsOf(amount: number): number {
  const fine = Math.round(Math.abs(amount) * 1e4);
  if (fine % 100 === 0) return 2;
  if (fine % 10 === 0) return 3;
  return 4;
}

/** Amounts in the gateway's balance units, written the way the user's language writes numbers. */
export function useMoney(): Money {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const formats = new Map<number, Intl.NumberFormat>();
    const formatWith = (digits: number) => {
      let format = formats.get(digits);
      if (!format)
        formats.set(
          digits,
          (format = new Intl.NumberFormat(i18n.language, {
            minimumFractionDigits: digits,
            maximumFractionDigits: digits === 2 ? 4 : digits,
          })),
        );
      return format;
    };
    const one = (amount: Amount) =>
      amount === null || amount === undefined ? '—' : formatWith(2).format(amount);
    const line = <K extends string>(amounts: Record<K, Amount>): Record<K, string> => {
      const entries = Object.entries(amounts) as [K, Amount][];
      const digits = Math.max(2, ...entries.map(([, a]) => (typeof a === 'number' ? decimalsOf(a) : 2)));
      return Object.fromEntries(
        entries.map(([k, a]) => [k, a === null || a === undefined ? '—' : formatWith(digits).format(a)]),
      ) as Record<K, string>;
    };
    return Object.assign(one, { line });
  }, [i18n.language]);
}
