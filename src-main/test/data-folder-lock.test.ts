import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataFolder, lockRecordOf } from '../services/storage/data-folder-lock';

const linux = existsSync('/proc/sys/kernel/random/boot_id');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A process that lives until the test ends: its id is a live one that holds no lock. */
function liveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

/** Another studio process that really holds the lock on `dir`, as a second launch would meet it. */
async function realHolder(dir: string): Promise<number> {
  const script = `
    const { lockDataFolder } = await import(${JSON.stringify(join(__dirname, '..', 'services', 'storage', 'data-folder-lock.ts'))});
    lockDataFolder(${JSON.stringify(dir)});
    console.log('locked');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => line === 'locked' && resolve());
    child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
  return child.pid!;
}

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'studio-lock-'));
}

describe('data folder lock', () => {
  it('refuses a second studio while a real one holds the folder', async () => {
    const dir = folder();
    const pid = await realHolder(dir);
    expect(() => lockDataFolder(dir)).toThrow(expect.objectContaining({ code: 'STUDIO_ALREADY_RUNNING' }));
    expect(JSON.parse(readFileSync(join(dir, 'studio.lock'), 'utf8'))).toMatchObject({ pid });
  });

  it('takes over a lock whose process is gone', () => {
    const dir = folder();
    writeFileSync(
      join(dir, 'studio.lock'),
      JSON.stringify({ ...lockRecordOf(process.pid), pid: 2 ** 22 + 7 }),
    );
    const unlock = lockDataFolder(dir);
    expect(JSON.parse(readFileSync(join(dir, 'studio.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    unlock();
    expect(existsSync(join(dir, 'studio.lock'))).toBe(false);
  });

  it('takes over a lock from before a reboot even though its process id now belongs to a live process', () => {
    const dir = folder();
    const pid = liveProcess();
    const record = lockRecordOf(pid);
    const beforeReboot = linux
      ? { ...record, bootId: '00000000-0000-0000-0000-000000000000' }
      : { ...record, bootTime: record.bootTime - 86_400_000 };
    writeFileSync(join(dir, 'studio.lock'), JSON.stringify(beforeReboot));
    const unlock = lockDataFolder(dir);
    expect(JSON.parse(readFileSync(join(dir, 'studio.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    unlock();
  });

  it.runIf(linux)('takes over a lock whose process id was reused by a process started later', () => {
    const dir = folder();
    const pid = liveProcess();
    writeFileSync(join(dir, 'studio.lock'), JSON.stringify({ ...lockRecordOf(pid), startTime: '1' }));
    const unlock = lockDataFolder(dir);
    expect(JSON.parse(readFileSync(join(dir, 'studio.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    unlock();
  });

  it('reads a lock written by an earlier version (the bare process id)', () => {
    const dir = folder();
    const pid = liveProcess();
    writeFileSync(join(dir, 'studio.lock'), String(pid));
    expect(() => lockDataFolder(dir)).toThrow(expect.objectContaining({ code: 'STUDIO_ALREADY_RUNNING' }));
  });
});
