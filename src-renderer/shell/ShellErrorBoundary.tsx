import type { ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import { useRenderErrorReport } from './render-error-report';
import { CRASH_TEST_KEY, detailsOf } from './ScreenErrorBoundary';

/** The parts of the window around the screen, each behind its own boundary. */
export type ShellPart = 'sidebar' | 'topbar' | 'updates' | 'shortcuts' | 'dialogs';

/** The end-to-end tests' switch, as for screens: that part throws while drawing. */
function CrashTest({ part }: { part: ShellPart }) {
  if (sessionStorage.getItem(CRASH_TEST_KEY) === part) {
    throw new Error(`Crash test: the ${part} was asked to fail while drawing.`);
  }
  return null;
}

function PartCrash({ part, error, resetErrorBoundary }: FallbackProps & { part: ShellPart }) {
  const { t } = useTranslation();
  const details = detailsOf(error);
  return (
    <div
      className={`error-notice compact shell-crash shell-crash-${part}`}
      role="alert"
      data-testid={`shell-crash-${part}`}
    >
      <p className="error-explanation">{t('crash.partTitle')}</p>
      <p className="error-details">
        <span>
          {t('crash.details')}: <code data-testid="shell-crash-details">{details}</code>
        </span>
        <button
          type="button"
          className="link-button"
          onClick={() => void navigator.clipboard?.writeText(`${t('crash.partTitle')}\n${details}`)}
        >
          {t('crash.copy')}
        </button>
      </p>
      <button type="button" onClick={resetErrorBoundary}>
        {t('crash.tryAgain')}
      </button>
    </div>
  );
}

/**
 * The sidebar, the top bar and the window-wide hosts each fail on their own: a compact notice takes
 * the broken part's place, and the screen and the other parts keep working.
 */
export function ShellErrorBoundary({ part, children }: { part: ShellPart; children: ReactNode }) {
  const report = useRenderErrorReport(part);
  return (
    <ErrorBoundary fallbackRender={(props) => <PartCrash part={part} {...props} />} onError={report}>
      <CrashTest part={part} />
      {children}
    </ErrorBoundary>
  );
}
