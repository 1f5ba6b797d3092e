import { createHash, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { logCaught, logCaughtUnlessMissing } from '../../log/studio-log';
import { fsyncDirSync, makeDirSync } from '../../storage/atomic-file';

/** The library's identity, at its root: what each studio keys its own index of the library by. */
export const LIBRARY_ID_FILE = '.studio-library.json';
const LIBRARY_ID_FORMAT = 'batch-image-studio.library/1';

export interface LibraryIdentity {
  id: string;
  /** `file`: read from (or made in) the library; `path`: derived from the folder's path, the id file being unreadable or unwritable. */
  from: 'file' | 'path';
}

function readId(file: string): string | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; id?: unknown };
    return parsed?.format === LIBRARY_ID_FORMAT &&
      typeof parsed.id === 'string' &&
      /^[\w-]{8,80}$/.test(parsed.id)
      ? parsed.id
      : undefined;
  } catch (err) {
    logCaughtUnlessMissing('library id read', err);
    return undefined;
  }
}

/** A short wait on this thread: the catalog opens synchronously. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The library's id, made once: the first studio to open the folder writes the id file with an
 * exclusive create, so two studios racing make one and both read back the winner's. The file is
 * never rewritten (it has one writer, once). A folder that cannot be written (a read-only share)
 * or whose id file is damaged still opens, under an id derived from its path.
 */
export function libraryIdentity(root: string): LibraryIdentity {
  const file = join(root, LIBRARY_ID_FILE);
  const existing = readId(file);
  if (existing) return { id: existing, from: 'file' };
  try {
    // A library folder named in Settings but not there yet is made, as a first download would.
    makeDirSync(root);
    const fd = openSync(file, 'wx');
    try {
      writeSync(fd, `${JSON.stringify({ format: LIBRARY_ID_FORMAT, id: randomUUID() })}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    fsyncDirSync(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') logCaught('library id create', err);
  }
  // Read back: whoever won the race wrote it, maybe a moment ago (its content may still be on the way).
  for (let attempt = 0; attempt < 5; attempt++) {
    const id = readId(file);
    if (id) return { id, from: 'file' };
    pause(20);
  }
  return {
    id: `path-${createHash('sha256').update(resolve(root)).digest('hex').slice(0, 24)}`,
    from: 'path',
  };
}
