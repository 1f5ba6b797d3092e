import { writeFile } from 'node:fs/promises';
import { utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { holderLives, lockRecordOf, readLockRecord, type LockRecord } from '../../storage/data-folder-lock';
import { logCaughtUnlessMissing } from '../../log/studio-log';

/**
 * Which studio owns something in a shared library (its staging folder, a download's lease): the
 * data-folder lock's record of the process, plus the studio's id, since several studios may share
 * one machine, and, in tests, one process.
 */
export interface OwnerRecord extends LockRecord {
  studioId: string;
}

export function ownerRecord(studioId: string): OwnerRecord {
  return { ...lockRecordOf(process.pid), studioId };
}

export function readOwner(file: string): OwnerRecord | undefined {
  const record = readLockRecord(file) as OwnerRecord | undefined;
  return record && typeof record.studioId === 'string' ? record : undefined;
}

/** Writes the record with an exclusive create: `false` when the file is already there. */
export async function createOwnerFile(file: string, studioId: string, extra: object = {}): Promise<boolean> {
  try {
    await writeFile(file, JSON.stringify({ ...ownerRecord(studioId), ...extra }), { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Whether the owner named in `file` is alive and is not this very studio: a process on this
 * machine by its id and start time, another machine's by the file's heartbeat (younger than
 * `staleMs`). This studio's own record from an earlier run is not alive (that run crashed).
 */
export function otherOwnerLives(
  record: OwnerRecord,
  file: string,
  studioId: string,
  staleMs: number,
): boolean {
  if (record.host === hostname() && record.pid === process.pid) return record.studioId !== studioId;
  return holderLives(record, file, staleMs);
}

/** Touches the file every `everyMs`, so studios on other machines see its owner alive. */
export function heartbeat(file: string, everyMs: number): () => void {
  const timer = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch((err: unknown) => logCaughtUnlessMissing('owner heartbeat', err));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
