import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Conf from 'conf';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../sandbox/gateway';
import { seededRandom } from '../services/batches/poll-schedule';
import { auditLibrary } from './library-audit';

// node with the tsx loader, not the tsx command: tsx runs scripts in a child process that a
// SIGKILL of tsx would leave running.
const DRAFTS = 12;

/** Runs the engine until `stopAfterMs` (then SIGKILL), or until it reports every batch downloaded. */
function runEngine(
  dataDir: string,
  gateway: string,
  stopAfterMs?: number,
): Promise<{ finished: boolean; lines: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src-main/test/engine-runner.ts',
        '--data',
        dataDir,
        '--gateway',
        gateway,
        '--drafts',
        String(DRAFTS),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const lines: string[] = [];
    let finished = false;
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (line === 'all downloaded' && !finished) {
        finished = true;
        child.kill('SIGKILL');
      }
    });
    const timer =
      stopAfterMs !== undefined
        ? setTimeout(() => child.kill('SIGKILL'), stopAfterMs)
        : setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve({ finished, lines });
    });
  });
}

describe('reliability across kills', () => {
  it('killed 20 times at random points of submit, poll and download, the library and the server agree', async () => {
    // Slow answers now and then, so that kills also land mid-download.
    const sandbox = await createSandbox({
      timeScale: 10,
      faults: 'slow=0.4,slow_ms=600,seed=5',
      config: { itemFailureRate: 0.1 },
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-kills-'));
    const random = seededRandom(42);
    try {
      const phases = new Set<string>();
      const taskNames = async () => {
        const res = await fetch(`${sandbox.url}/v1/images/batches?limit=100`, {
          headers: { authorization: 'Bearer sk-sandbox-alice' },
        });
        return ((await res.json()) as any).data.map((b: any) => b.task_name) as string[];
      };
      for (let kill = 0; kill < 20; kill++) {
        // Starting the engine takes about a second; kills spread over the next one and a half.
        const { lines } = await runEngine(dataDir, sandbox.url, 900 + random() * 1500);
        const lastLine = lines[lines.length - 1] ?? '';
        if (lastLine.startsWith('submitting')) phases.add('submit');
        if (lastLine.startsWith('downloading')) phases.add('download');
        if (lastLine.startsWith('progress')) phases.add('poll');
        // After every kill: no batch exists twice, and every library folder is whole.
        const names = await taskNames();
        expect(new Set(names).size, `after kill ${kill + 1}`).toBe(names.length);
        const settings = new Conf<Record<string, any>>({
          cwd: dataDir,
          configName: 'settings',
          projectName: 'engine-runner',
        }).get('settings');
        if (settings) {
          for (const folder of auditLibrary(settings.libraryDir).folders.values()) {
            expect(folder.images.length).toBe(folder.record.images.length);
          }
        }
      }
      const last = await runEngine(dataDir, sandbox.url);
      expect(last.finished).toBe(true);

      sandbox.faults.set('');
      const account = sandbox.inspect().accounts['sk-sandbox-alice']!;
      expect(account.batchesCreated).toBe(DRAFTS);
      expect(account.holdsPlaced).toBe(DRAFTS);

      const settings = new Conf<Record<string, any>>({
        cwd: dataDir,
        configName: 'settings',
        projectName: 'engine-runner',
      }).get('settings');
      const { folders, partial } = auditLibrary(settings.libraryDir);
      expect(partial).toEqual([]);
      expect(folders.size).toBe(DRAFTS);
      const names = [...folders.values()].map((f) => f.record.batch.task_name).sort();
      expect(names).toEqual(Array.from({ length: DRAFTS }, (_, i) => `Kill test ${i}`).sort());
      for (const [id, folder] of folders) {
        const res = await fetch(`${sandbox.url}/v1/images/batches/${id}/items?status=success`, {
          headers: { authorization: 'Bearer sk-sandbox-alice' },
        });
        const expected = ((await res.json()) as any).data.map((i: any) => `${i.custom_id}.png`).sort();
        expect(folder.images).toEqual(expected);
      }
      console.log(`kills: 20, last output before a kill: ${[...phases].join(', ')}`);
    } finally {
      await sandbox.close();
    }
  }, 300_000);
});
