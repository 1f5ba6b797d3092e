import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, uptime } from 'node:os';
import { join } from 'node:path';
import { StudioError } from '../../../src-shared/studio-error';
import { logCaught } from '../log/studio-log';

/** Who holds the lock: enough to tell a live holder from a process id reused after a reboot. */
export interface LockRecord {
  pid: number;
  host: string;
  /** Linux: /proc/sys/kernel/random/boot_id, different after every boot. */
  bootId?: string;
  /** When the machine booted (ms), where there is no boot id. */
  bootTime: number;
  /** Linux: the process's start time in clock ticks since boot (/proc/<pid>/stat field 22). */
  startTime?: string;
}

/** The holder touches the lock this often, so a holder on another machine can be judged by the mtime. */
export const HEARTBEAT_MS = 60_000;
const FOREIGN_STALE_MS = 5 * HEARTBEAT_MS;
/** Boot times computed from uptime drift a little; a reboot moves them by far more. */
const BOOT_TOLERANCE_MS = 120_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  return readOptional('/proc/sys/kernel/random/boot_id');
}

function startTimeOf(pid: number): string | undefined {
  const stat = readOptional(`/proc/${pid}/stat`);
  // The command name in parentheses may hold spaces; fields are counted after its closing one.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/** The record this process (or another one on this machine, for tests) would write. */
export function lockRecordOf(pid: number): LockRecord {
  return {
    pid,
    host: hostname(),
    bootId: bootId(),
    bootTime: Date.now() - uptime() * 1000,
    startTime: startTimeOf(pid),
  };
}

/** A lock or owner record as written to disk; `undefined` when it cannot be read or is damaged. */
export function readLockRecord(file: string): LockRecord | undefined {
  return parse(readOptional(file) ?? '');
}

function parse(text: string): LockRecord | undefined {
  // Locks written by earlier versions hold only the process id.
  if (/^\d+$/.test(text)) return { pid: Number(text), host: hostname(), bootTime: Number.NaN };
  try {
    const record = JSON.parse(text) as LockRecord;
    return Number.isInteger(record.pid) && record.pid > 0 ? record : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process that wrote the lock still runs: its id alone may have been reused since a
 * reboot. A holder on another machine is judged by the file's time, which it touches every
 * heartbeat: alive while younger than `staleMs`.
 */
export function holderLives(record: LockRecord, file: string, staleMs = FOREIGN_STALE_MS): boolean {
  if (record.host !== hostname()) {
    const age = Date.now() - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    return age < staleMs;
  }
  if (record.pid === process.pid) return false;
  const now = lockRecordOf(record.pid);
  if (record.bootId && now.bootId && record.bootId !== now.bootId) return false;
  if (!record.bootId && Math.abs(record.bootTime - now.bootTime) > BOOT_TOLERANCE_MS) return false;
  if (!alive(record.pid)) return false;
  if (record.startTime && now.startTime && record.startTime !== now.startTime) return false;
  return true;
}

/**
 * One studio per data folder: two would submit, poll and download the same batches. A lock left by
 * a process that died (a crash, a kill, a reboot that gave its id to another process) is taken over.
 */
export function lockDataFolder(dataDir: string): () => void {
  const file = join(dataDir, 'studio.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(lockRecordOf(process.pid)), { flag: 'wx' });
      const heartbeat = setInterval(() => {
        try {
          const now = new Date();
          utimesSync(file, now, now);
        } catch (err) {
          logCaught('data folder lock heartbeat', err);
        }
      }, HEARTBEAT_MS);
      heartbeat.unref();
      return () => {
        clearInterval(heartbeat);
        rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const record = readLockRecord(file);
      if (record && holderLives(record, file)) {
        throw new StudioError({
          code: 'STUDIO_ALREADY_RUNNING',
          message: `Another Batch Image Studio (process ${record.pid}) is using ${dataDir}. Close it first, or start with another data folder.`,
        });
      }
      rmSync(file, { force: true });
    }
  }
  throw new StudioError({ code: 'STUDIO_ALREADY_RUNNING', message: `Could not lock ${dataDir}.` });
}
