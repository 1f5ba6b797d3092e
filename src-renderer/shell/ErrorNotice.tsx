import { useTranslation } from 'react-i18next';
import { isMessageKey, isMessageName } from '../../src-shared/i18n/message-keys';
import { explanationKey, nextStep, type StudioErrorView } from '../../src-shared/studio-error';

/** The plain explanation of an error code in the user's language, or undefined when unknown. */
export function useExplain() {
  const { t } = useTranslation();
  return (code: string): string | undefined =>
    isMessageName('errors', code) ? t(`errors.${code}`) : undefined;
}

/**
 * An error as people need it: what it means in their language, the gateway's own message, the code
 * and the request id to quote to support.
 */
export function ErrorNotice({ error, compact = false }: { error: StudioErrorView; compact?: boolean }) {
  const { t } = useTranslation();
  // A refused paid send names the earlier submission the explanation speaks of.
  const earlier = error.earlier?.[0];
  const explanation = t(
    explanationKey(error, (key) => isMessageKey('errors', key)),
    earlier ? { name: earlier.taskName } : {},
  );
  // What the studio does about it next: only for what the gateway or the network said.
  const step = nextStep(error);
  const next =
    error.source === 'studio'
      ? undefined
      : t(
          step === 'retries'
            ? 'errors.nextRetries'
            : step === 'waits'
              ? 'errors.nextWaits'
              : 'errors.nextNothing',
        );
  const details = [
    `${t('errors.code')}: ${error.code}`,
    error.httpStatus ? `${t('errors.httpStatus')}: ${error.httpStatus}` : undefined,
    error.requestId ? `${t('errors.requestId')}: ${error.requestId}` : undefined,
  ].filter(Boolean);
  return (
    <div
      className={compact ? 'error-notice compact' : 'error-notice'}
      role="alert"
      data-error-code={error.code}
      data-error-source={error.source}
    >
      <p className="error-explanation">{explanation}</p>
      {next && <p className="error-next">{next}</p>}
      {error.message && error.message !== explanation && <p className="error-message">{error.message}</p>}
      <p className="error-details">
        {details.map((d) => (
          <span key={d}>{d}</span>
        ))}
        <button
          type="button"
          className="link-button"
          onClick={() =>
            void navigator.clipboard?.writeText(
              [explanation, error.message, ...details].filter(Boolean).join('\n'),
            )
          }
        >
          {t('errors.copy')}
        </button>
      </p>
    </div>
  );
}
