import { StudioError } from '../../../src-shared/studio-error';
import { logCaught } from '../log/studio-log';

/** A batch ZIP refused, with the reason in words: the download may be tried again. */
export const refuse = (message: string) =>
  new StudioError({
    code: 'STUDIO_ZIP_REJECTED',
    message: `The batch archive was refused: ${message}`,
    retryable: true,
  });

/**
 * A refusal in words a designer can read. The parser's own text (yauzl's, zlib's, JSON's) goes to the
 * log for whoever diagnoses it, never into the message on screen.
 */
export function unreadable(context: string, err: unknown, words: string): StudioError {
  logCaught(`zip-ingest ${context}`, err);
  return refuse(words);
}
