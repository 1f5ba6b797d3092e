import { useEffect, useState } from 'react';
import type { ThemePreference } from '../../src-shared/settings';

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/** Applies the chosen theme, following the OS while the choice is "system". */
export function useAppliedTheme(preference: ThemePreference | undefined): 'light' | 'dark' {
  const [systemDark, setSystemDark] = useState(() => darkQuery().matches);
  useEffect(() => {
    const query = darkQuery();
    const onChange = () => setSystemDark(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  const theme = preference === 'light' || preference === 'dark' ? preference : systemDark ? 'dark' : 'light';
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  return theme;
}
