import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** "5 minutes ago", "昨天": how long ago a time was, in the user's language. */
export function useAgo(): (ms: number) => string {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const format = new Intl.RelativeTimeFormat(i18n.language, { numeric: 'auto' });
    return (ms) => {
      const seconds = Math.round((ms - Date.now()) / 1000);
      if (Math.abs(seconds) < 60) return format.format(seconds, 'second');
      const minutes = Math.round(seconds / 60);
      if (Math.abs(minutes) < 60) return format.format(minutes, 'minute');
      const hours = Math.round(minutes / 60);
      if (Math.abs(hours) < 24) return format.format(hours, 'hour');
      return format.format(Math.round(hours / 24), 'day');
    };
  }, [i18n.language]);
}
