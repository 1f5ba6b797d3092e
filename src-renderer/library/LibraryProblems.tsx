import { useTranslation } from 'react-i18next';
import type { LibraryOverview } from '../../src-shared/library-view';

/** Folders that could not be read in full, each with the reason in words and the file to look at. */
export function LibraryProblems({ problems }: { problems: LibraryOverview['problems'] }) {
  const { t } = useTranslation();
  if (!problems.length) return null;
  return (
    <details className="notice warn" data-testid="library-problems">
      <summary>{t('library.problems', { count: problems.length })}</summary>
      <ul>
        {problems.map((p) => (
          <li key={p.folder}>
            <span className="mono">{p.folder}</span>:{' '}
            {t(`library.problem.${p.reason}`, { file: p.file, count: p.missing, total: p.total })}
          </li>
        ))}
      </ul>
    </details>
  );
}
