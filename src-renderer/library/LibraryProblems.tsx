import { useTranslation } from 'react-i18next';
import type { LibraryOverview } from '../../src-shared/library-view';

type Problem = LibraryOverview['problems'][number];

/**
 * Folders that could not be read in full, each with the reason in words and the file to look at;
 * folders still arriving (a copy or a sync under way) apart, as news rather than damage: they
 * complete themselves.
 */
export function LibraryProblems({ problems }: { problems: LibraryOverview['problems'] }) {
  const { t } = useTranslation();
  const arriving = problems.filter((p) => p.reason === 'ARRIVING');
  const broken = problems.filter((p) => p.reason !== 'ARRIVING');
  const words = (p: Problem) =>
    p.reason === 'ARRIVING' && p.total === undefined
      ? t('library.problem.ARRIVING_RECORD')
      : t(`library.problem.${p.reason}`, { file: p.file, count: p.missing, total: p.total });
  const list = (of: Problem[]) => (
    <ul>
      {of.map((p) => (
        <li key={p.folder}>
          <span className="mono">{p.folder}</span>: {words(p)}
        </li>
      ))}
    </ul>
  );
  return (
    <>
      {arriving.length > 0 && (
        <details className="notice" data-testid="library-arriving">
          <summary>{t('library.arriving', { count: arriving.length })}</summary>
          {list(arriving)}
        </details>
      )}
      {broken.length > 0 && (
        <details className="notice warn" data-testid="library-problems">
          <summary>{t('library.problems', { count: broken.length })}</summary>
          {list(broken)}
        </details>
      )}
    </>
  );
}
