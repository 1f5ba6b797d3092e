import { StudioError } from '../../../src-shared/studio-error';

/**
 * A write the library's disk refused, in words, or undefined for any other failure. A full disk
 * used to reach people as Node's "ENOSPC: no space left on device, write", and the download then
 * tried every image again one by one, into the same full disk.
 */
export function diskRefusal(err: unknown, folder: string): StudioError | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new StudioError({ code: 'STUDIO_DISK_FULL', message: `The disk of ${folder} is full.` });
  // Not EPERM: on Windows it is what a rename meets while an antivirus or an indexer holds the
  // file for a moment, which the next attempt gets past.
  if (code === 'EROFS' || code === 'EACCES')
    return new StudioError({
      code: 'STUDIO_LIBRARY_NOT_WRITABLE',
      message: `The studio may not write into ${folder}.`,
    });
  return undefined;
}
