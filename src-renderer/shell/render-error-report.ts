import { useContext } from 'react';
import { StudioContext } from '../app/studio-context';

/** What a boundary knows of a render error, short: the message and the first few components. */
function reportText(error: unknown, componentStack?: string | null): string {
  const head = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const components = (componentStack ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, 6)
    .join(' < ');
  return (components ? `${head}\n  in ${components}` : head).slice(0, 2000);
}

/**
 * An error boundary's onError: the console for developers, and the main process's log file, so a
 * part of the window that failed on someone's machine is on record. Reporting never throws.
 */
export function useRenderErrorReport(where: string) {
  const studio = useContext(StudioContext);
  return (error: unknown, info: { componentStack?: string | null }) => {
    console.error(`${where} failed to draw:`, error);
    studio
      ?.call('app.logRendererError', { where, message: reportText(error, info.componentStack) })
      .catch(() => undefined);
  };
}
