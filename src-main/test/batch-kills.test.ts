import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Conf from 'conf';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../sandbox/gateway';
import { seededRandom } from './helpers/seeded-random';
import { auditLibrary, stagingLeftovers } from './helpers/library-audit';
import { runUnderKill } from './helpers/killed-runner';

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
        'src-main/test/helpers/engine-runner.ts',
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

/** One session of replace-runner.ts; with `killAt`, SIGKILLed right after that many renames. */
function runReplace(
  dataDir: string,
  gateway: string,
  mode: 'setup' | 'replace' | 'session' | 'check',
  killAt = 0,
  tag = '',
): Promise<{ lines: string[]; signal: NodeJS.Signals | null }> {
  return runUnderKill(
    'src-main/test/helpers/replace-runner.ts',
    ['--data', dataDir, '--gateway', gateway, '--mode', mode, '--tag', tag],
    killAt,
  );
}

describe('replacing a batch folder, killed at every rename', () => {
  it('leaves the batch in the library, whole, with its marks, and no leftovers after each restart', async () => {
    // Outputs kept for a month of gateway time, as in the session sweep below.
    const sandbox = await createSandbox({
      timeScale: 1000,
      config: { itemFailureRate: 0, timing: { retentionS: 30 * 24 * 3600 } },
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-replace-kills-'));
    try {
      const setup = await runReplace(dataDir, sandbox.url, 'setup');
      expect(setup.lines).toContain('set up');
      const libraryDir = new Conf<Record<string, any>>({
        cwd: dataDir,
        configName: 'settings',
        projectName: 'replace-runner',
      }).get('settings').libraryDir as string;

      const check = (when: string, shown?: string[]) => {
        const { folders, partial } = auditLibrary(libraryDir);
        expect(partial, when).toEqual([]);
        expect(folders.size, when).toBe(1);
        // The Library shows the batch folders and nothing a kill left in staging.
        if (shown) expect(shown, when).toContain(`shown ${[...folders.keys()].sort().join(',')}`);
        const [folder] = [...folders.values()];
        expect(folder!.images, when).toHaveLength(3);
        const name = readdirSync(libraryDir).find((n) => !n.startsWith('.'))!;
        expect(marksIn(join(libraryDir, name)), when).toContainEqual({ mark: 'picked', stars: 4 });
        for (const dir of [
          join(libraryDir, name),
          join(libraryDir, name, 'review'),
          join(dataDir, 'batches'),
          join(dataDir, 'submissions'),
        ])
          expect(
            (existsSync(dir) ? readdirSync(dir) : []).filter((n) => /\.json\.[0-9a-f]+$|\.tmp$/.test(n)),
            when,
          ).toEqual([]);
      };

      let renames = Infinity;
      for (let killAt = 1; killAt <= renames; killAt++) {
        const run = await runReplace(dataDir, sandbox.url, 'replace', killAt);
        const done = run.lines.find((l) => l.startsWith('replaced after'));
        if (done) {
          renames = Number(/(\d+)/.exec(done)![1]);
          check('after a replacement that was not killed');
          break;
        }
        expect(run.signal, `run ${killAt}: ${run.lines.join(' | ')}`).toBe('SIGKILL');
        const restart = await runReplace(dataDir, sandbox.url, 'check');
        expect(restart.lines).toContain('checked');
        check(`killed after rename ${killAt}, then restarted`, restart.lines);
      }
      expect(renames).toBeGreaterThan(2);
      console.log(`replacement: killed after each of its renames; ${renames} renames per replacement`);
    } finally {
      await sandbox.close();
    }
  }, 600_000);
});

/** Every mark a batch folder holds on disk: each person's file in review/, and the legacy review.json. */
function marksIn(folder: string): { mark: string; stars: number }[] {
  const review = join(folder, 'review');
  const files = [
    join(folder, 'review.json'),
    ...(existsSync(review) ? readdirSync(review).filter((f) => f.endsWith('.json')) : []).map((f) =>
      join(review, f),
    ),
  ].filter((f) => existsSync(f));
  return files.flatMap((file) =>
    (Object.values(JSON.parse(readFileSync(file, 'utf8')).images) as { mark: string; stars: number }[]).map(
      ({ mark, stars }) => ({ mark, stars }),
    ),
  );
}

/** Temp files an atomic write leaves when killed before its rename. */
const leftovers = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((n) => /\.json\.[0-9a-f]+$|\.tmp$/.test(n)) : [];

describe('a working session, killed at every rename', () => {
  it('loses no folder, mark or paid batch, and leaves nothing behind, wherever the kill lands', async () => {
    // Outputs kept for a month of gateway time: a sweep of many restarts outlasts the default 72 h
    // (about four minutes at this time scale), and expiry is not what it tests.
    const sandbox = await createSandbox({
      timeScale: 1000,
      config: { itemFailureRate: 0, timing: { retentionS: 30 * 24 * 3600 } },
    });
    // One batch in the library with a mark: the state every killed session starts from.
    const template = mkdtempSync(join(tmpdir(), 'studio-session-template-'));
    const settingsOf = (dataDir: string) =>
      new Conf<Record<string, any>>({ cwd: dataDir, configName: 'settings', projectName: 'replace-runner' });
    /** A copy of the template; its settings name the copy's own library. */
    const fresh = () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'studio-session-'));
      cpSync(template, dataDir, { recursive: true });
      const file = join(dataDir, 'settings.json');
      writeFileSync(file, readFileSync(file, 'utf8').split(template).join(dataDir));
      return dataDir;
    };
    const tasksNamed = async (name: string) => {
      const res = await fetch(`${sandbox.url}/v1/images/batches?limit=100`, {
        headers: { authorization: 'Bearer sk-sandbox-alice' },
      });
      return ((await res.json()) as any).data.filter((b: any) => b.task_name === name) as { id: string }[];
    };
    // Each session's new batch leaves the server once checked: the next session's start-up would
    // otherwise find it (same key) and rightly download it too.
    const forget = async (name: string) => {
      for (const { id } of await tasksNamed(name))
        await fetch(`${sandbox.url}/_sandbox/batches/${id}/vanish`, { method: 'POST' });
    };
    try {
      expect((await runReplace(template, sandbox.url, 'setup')).lines).toContain('set up');

      /** What the user must find after a restart, given the steps the killed session finished. */
      const check = async (dataDir: string, tag: string, shown: string[], when: string, listed: string[]) => {
        const libraryDir = settingsOf(dataDir).get('settings').libraryDir as string;
        const { folders, partial } = auditLibrary(libraryDir);
        expect(partial, when).toEqual([]);
        expect(listed, when).toContain(`shown ${[...folders.keys()].sort().join(',')}`);
        for (const folder of folders.values()) expect(folder.images.length, when).toBe(3);
        const names = readdirSync(libraryDir).filter((n) => !n.startsWith('.'));
        const marks = names.flatMap((name) => marksIn(join(libraryDir, name)));
        // The first batch is never lost, nor its mark; the second mark once the user saw it made.
        expect(marks, when).toContainEqual({ mark: 'picked', stars: 4 });
        if (shown.includes('marked')) expect(marks, when).toContainEqual({ mark: 'rejected', stars: 1 });
        // The new batch was paid for at most once, and once the gateway has it, it is in the library.
        const sent = await tasksNamed(`Session ${tag}`);
        expect(sent.length, when).toBeLessThanOrEqual(1);
        if (shown.includes('submitted')) expect(sent.length, when).toBe(1);
        expect(folders.size, when).toBe(1 + sent.length);
        for (const { id } of sent) expect(folders.has(id), when).toBe(true);
        for (const dir of [
          ...names.flatMap((name) => [join(libraryDir, name), join(libraryDir, name, 'review')]),
          libraryDir,
          join(dataDir, 'batches'),
          join(dataDir, 'submissions'),
          join(dataDir, 'drafts'),
        ])
          expect(leftovers(dir), `${when}: ${dir}`).toEqual([]);
        expect(stagingLeftovers(libraryDir), when).toEqual([]);
      };

      // A session's renames vary a little from run to run (a poll more or less writes the batch's
      // state once more), so the kills go on until a session ends before its next rename.
      let renames = 0;
      let kills = 0;
      for (let killAt = 1; killAt <= 200; killAt++) {
        const dataDir = fresh();
        const tag = String(killAt);
        const run = await runReplace(dataDir, sandbox.url, 'session', killAt, tag);
        const done = run.lines.find((l) => l.startsWith('session done after'));
        if (done) renames = Number(/(\d+)/.exec(done)![1]);
        else {
          expect(run.signal, `run ${killAt}: ${run.lines.join(' | ')}`).toBe('SIGKILL');
          kills = killAt;
        }
        const restart = await runReplace(dataDir, sandbox.url, 'check');
        expect(restart.lines, `restart after rename ${killAt}`).toContain('checked');
        await check(
          dataDir,
          tag,
          run.lines,
          done
            ? 'a whole session, then a restart'
            : `killed after rename ${killAt} (${run.lines.join(', ')}), then restarted`,
          restart.lines,
        );
        await forget(`Session ${tag}`);
        if (done) break;
      }
      expect(renames).toBeGreaterThan(10);
      expect(kills).toBeGreaterThanOrEqual(renames);
      console.log(
        `session: killed after renames 1 to ${kills}, then restarted; a whole session made ${renames}`,
      );
    } finally {
      await sandbox.close();
    }
  }, 1_200_000);
});
