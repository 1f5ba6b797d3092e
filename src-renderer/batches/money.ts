import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Amounts in the gateway's balance units, written the way the user's language writes numbers:
 * at least two decimals, at most four (unit prices are fractions of a unit).
 */
export function useMoney(): (amount: number | null | undefined) => string {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.NumberFormat(i18n.language, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 4,
    });
    return (amount) => (amount === null || amount === undefined ? '—' : format.format(amount));
  }, [i18n.language]);
}
