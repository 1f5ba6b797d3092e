import { StudioError } from '../../src-shared/studio-error';
import { takeSessionToken } from '../app/studio-client';

/**
 * Browser mode: fetches a ZIP the studio prepared (with the run's token, which a plain link could
 * not send) and hands it to the browser as a download under its name.
 */
export async function downloadPreparedExport(url: string, name: string): Promise<void> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${takeSessionToken() ?? ''}` } });
  if (!res.ok) {
    const body = (await res.json().catch(() => undefined)) as { error?: unknown } | undefined;
    throw StudioError.from(body?.error ?? new Error(`The download answered ${res.status}.`));
  }
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.click();
  // The click has started the download from the blob; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
