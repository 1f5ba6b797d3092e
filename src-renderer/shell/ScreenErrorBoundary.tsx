import type { ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import { retryFailedScreens } from '../app/lazy-screens';
import { useNavigation, type Screen } from '../app/navigation-store';
import { useRenderErrorReport } from './render-error-report';

/**
 * Set this sessionStorage key to a screen's name and that screen throws while drawing: the only way
 * the end-to-end tests can show the boundary at work. Nothing in the studio sets it.
 */
export const CRASH_TEST_KEY = 'studio.crashTest';

function CrashTest({ screen }: { screen: Screen }) {
  if (sessionStorage.getItem(CRASH_TEST_KEY) === screen) {
    throw new Error(`Crash test: the ${screen} screen was asked to fail while drawing.`);
  }
  return null;
}

export function detailsOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

function ScreenCrash({ error, resetErrorBoundary }: FallbackProps) {
  const { t } = useTranslation();
  const go = useNavigation((s) => s.go);
  const details = detailsOf(error);
  return (
    <section
      className="screen screen-crash"
      role="alert"
      aria-labelledby="screen-crash-title"
      data-testid="screen-crash"
    >
      <h1 id="screen-crash-title">{t('crash.title')}</h1>
      <div className="error-notice">
        <p className="error-explanation">{t('crash.body')}</p>
        <p className="error-details">
          <span>
            {t('crash.details')}: <code data-testid="screen-crash-details">{details}</code>
          </span>
          <button
            type="button"
            className="link-button"
            onClick={() => void navigator.clipboard?.writeText(`${t('crash.title')}\n${details}`)}
          >
            {t('crash.copy')}
          </button>
        </p>
      </div>
      <div className="actions">
        <button type="button" className="primary" onClick={resetErrorBoundary}>
          {t('crash.tryAgain')}
        </button>
        <button type="button" onClick={() => go('compose')}>
          {t('crash.goToCompose')}
        </button>
      </div>
    </section>
  );
}

/**
 * A screen that throws while drawing shows what happened and a way back, instead of a blank
 * window: the sidebar and the other screens keep working. Moving to another screen starts afresh.
 */
export function ScreenErrorBoundary({ screen, children }: { screen: Screen; children: ReactNode }) {
  const report = useRenderErrorReport(`${screen} screen`);
  return (
    <ErrorBoundary
      FallbackComponent={ScreenCrash}
      resetKeys={[screen]}
      onError={report}
      // "Try again", or another screen: a chunk that failed to come is fetched again.
      onReset={retryFailedScreens}
    >
      <CrashTest screen={screen} />
      {children}
    </ErrorBoundary>
  );
}
