import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockRecordOf } from '../services/storage/data-folder-lock';
import { FileSecretStore } from '../services/secrets/secret-store';
import { createStudioServices } from '../services/studio-services';
import {
  initStudioLog,
  LOG_FILES_KEPT,
  logCaught,
  logFolder,
  logInfo,
  RENDERER_REPORTS_PER_MINUTE,
} from '../services/log/studio-log';
import { call, startServices } from './helpers/studio-fixture';

const services = await startServices();
const logFile = join(services.dataDir, 'logs', 'studio.log');

describe('the studio log', () => {
  it('is written in the data folder, and records an error the studio recovered from', async () => {
    expect(logFolder()).toBe(join(services.dataDir, 'logs'));
    // A search history the studio cannot read: it carries on with an empty one, and says so in the log.
    mkdirSync(join(services.dataDir, 'kb'), { recursive: true });
    writeFileSync(join(services.dataDir, 'kb', 'searches.json'), '[{"id": "kbq_1", ');
    expect(await call(services, 'kb.history')).toEqual([]);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/\[warn\].*\[knowledge-base search history read\] SyntaxError/);
  });

  it('never holds a key, even one quoted inside an error message', async () => {
    const key = 'sk-live-7f3a9c0d41e2b8a6';
    await call(services, 'profiles.save', {
      name: 'Production',
      baseUrl: 'https://gateway.example.com',
      gatewayKey: key,
    });
    logCaught('gateway call', new Error(`401 from https://gateway.example.com: invalid key ${key}`));
    logCaught('gateway call', { header: `Bearer ${key}` });
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('[gateway call] Error: 401 from https://gateway.example.com: invalid key');
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.slice(0, 12));
  });
});

describe('render errors the window reports', () => {
  it('are logged redacted, and only a few a minute', async () => {
    const key = 'sk-live-render-0a1b2c3d4e5f';
    await call(services, 'profiles.save', {
      name: 'Render errors',
      baseUrl: 'https://render.example.com',
      gatewayKey: key,
    });
    const report = (n: number) =>
      call(services, 'app.logRendererError', {
        where: 'library screen',
        message: `TypeError: report ${n} while drawing with ${key}`,
      });
    const answers: boolean[] = [];
    for (let n = 1; n <= RENDERER_REPORTS_PER_MINUTE + 2; n++) answers.push(await report(n));
    expect(answers).toEqual([...Array<boolean>(RENDERER_REPORTS_PER_MINUTE).fill(true), false, false]);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/\[error\].*\[window: library screen\] TypeError: report 1 while drawing/);
    expect(log).toContain(`report ${RENDERER_REPORTS_PER_MINUTE} while drawing`);
    expect(log).not.toContain(`report ${RENDERER_REPORTS_PER_MINUTE + 1} while drawing`);
    expect(log).not.toContain(key);
  });
});

// Late: the refused studio points the process's log at its own data folder.
describe('a studio refused the data folder', () => {
  it("records why in that folder's log", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-log-refused-'));
    // The folder is held by another live process on this machine (the test runner's parent).
    writeFileSync(join(dataDir, 'studio.lock'), JSON.stringify(lockRecordOf(process.ppid)));
    await expect(
      createStudioServices({
        host: 'browser',
        version: 'test',
        dataDir,
        store: new Map<string, unknown>(),
        secrets: new FileSecretStore(dataDir),
      }),
    ).rejects.toMatchObject({ code: 'STUDIO_ALREADY_RUNNING' });
    expect(readFileSync(join(dataDir, 'logs', 'studio.log'), 'utf8')).toMatch(
      /\[warn\].*\[data folder lock\] StudioError STUDIO_ALREADY_RUNNING: Another Batch Image Studio \(process \d+\)/,
    );
    // The holder's lock is left alone.
    expect(JSON.parse(readFileSync(join(dataDir, 'studio.lock'), 'utf8')).pid).toBe(process.ppid);
  });
});

// Last: it points the process's log at a folder of its own, with a small rotation size.
describe('log rotation', () => {
  it('keeps the previous files up to the limit, newest first, and drops the oldest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-log-rotation-'));
    const maxSize = 4096;
    initStudioLog(dir, (text) => text, { maxSize });
    const line = (n: number) => `line ${String(n).padStart(4, '0')} ${'x'.repeat(200)}`;
    // About 30 KB: several times the rotation size, more than the kept files can hold.
    const total = 140;
    for (let n = 0; n < total; n++) logInfo(line(n));

    const files = readdirSync(dir).sort();
    const numbered = Array.from({ length: LOG_FILES_KEPT }, (_, i) => `studio.${i + 1}.log`);
    expect(files).toEqual(['studio.1.log', 'studio.2.log', 'studio.3.log', 'studio.log'].sort());
    expect(existsSync(join(dir, `studio.${LOG_FILES_KEPT + 1}.log`))).toBe(false);
    for (const name of ['studio.log', ...numbered]) {
      // A file is moved aside once it passes the size, so none grows much beyond it.
      expect(statSync(join(dir, name)).size, name).toBeLessThan(maxSize + 1024);
    }
    const numbersIn = (name: string) =>
      [...readFileSync(join(dir, name), 'utf8').matchAll(/line (\d{4})/g)].map((m) => Number(m[1]));
    // Oldest to newest: studio.3.log, studio.2.log, studio.1.log, studio.log, with no gap between them.
    const kept = [...[...numbered].reverse(), 'studio.log'].flatMap(numbersIn);
    expect(kept.at(-1)).toBe(total - 1);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => kept[0]! + i));
    // And the oldest lines are gone: only the newest files are kept.
    expect(kept[0]).toBeGreaterThan(0);
  });
});
