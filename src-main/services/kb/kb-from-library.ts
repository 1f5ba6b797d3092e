import type { KbRow } from '../../../src-shared/kb-view';
import type { LibraryDetail } from '../../../src-shared/library-view';

/**
 * A reviewed image as a knowledge-base row: its prompt is the question, and the answer says what the
 * review made of it (mark, stars) and where it came from, so a search hit leads back to the image.
 */
export function kbRowOfImage(image: LibraryDetail): KbRow {
  const a = [
    image.mark === 'picked' ? 'Picked in review.' : image.mark === 'rejected' ? 'Rejected in review.' : '',
    image.stars ? `Rating: ${image.stars}/5.` : '',
    `Batch: ${image.taskName} (${image.batchId}).`,
    `Model: ${image.model}.`,
    `File: ${image.file}.`,
  ]
    .filter(Boolean)
    .join(' ');
  return { q: image.prompt, a };
}

/** Library uploads go in index mode, in chunks of this many rows. */
export const LIBRARY_CHUNK_SIZE = 50;
