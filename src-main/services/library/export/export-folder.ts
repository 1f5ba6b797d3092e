import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { StudioError } from '../../../../src-shared/studio-error';
import { isSystemLocation } from '../../settings/library-dir';

const refuse = (message: string) => new StudioError({ code: 'STUDIO_EXPORT_FOLDER_INVALID', message });

/**
 * Where "Export to folder" may write, from a path a person typed (browser mode has no folder
 * picker). A relative path used to be taken from the working folder of whatever process started
 * the studio, so images landed in the app's or a script's own folder; a file or a system location
 * failed with Node's words (EEXIST, ENOTDIR). Both are refused here, plainly, before any write.
 */
export function checkExportFolder(value: string): string {
  const trimmed = value.trim();
  if (trimmed.includes('\0')) throw refuse('A folder path cannot hold a NUL character.');
  const home = trimmed === '~' || trimmed.startsWith('~/');
  if (!home && !isAbsolute(trimmed)) {
    throw refuse('Type the full path of the folder, such as /home/me/Pictures/picks or ~/picks.');
  }
  const path = home ? join(homedir(), trimmed.slice(1)) : resolve(trimmed);
  if (isSystemLocation(path)) throw refuse(`${path} is a system location; choose a folder on a disk.`);
  let stat;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch (err) {
    throw exportFolderFailed(path, err);
  }
  if (stat && !stat.isDirectory()) throw refuse(`${path} is a file, not a folder.`);
  return path;
}

/** A write into the chosen folder that failed, said without Node's codes and call names. */
export function exportFolderFailed(path: string, err: unknown): StudioError {
  return refuse(`Could not copy the images into ${path}: ${writeFailure(err)}.`);
}

/** Why a write failed, in words: Node's own ("EACCES: permission denied, open …") are not for people. */
export function writeFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
    ? 'the studio may not write there'
    : code === 'ENOSPC'
      ? 'the disk is full'
      : code === 'ENOTDIR' || code === 'EEXIST'
        ? 'a file is in the way of a folder'
        : code === 'ENAMETOOLONG'
          ? 'a name in the path is too long'
          : 'the disk refused the write';
}
