import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../gateway';
import { ALICE, call, createBatch, items, waitForStatus } from './harness';

const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');

/** Runs the CLI as a user would, and resolves with its first line of output. */
function startCli(args: string[]): Promise<{ line: string; stop: () => Promise<number | null> }> {
  const child = spawn(TSX, ['sandbox/cli.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) =>
      resolve({
        line,
        stop: () =>
          new Promise((done) => {
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      }),
    );
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
}

describe('--data DIR', () => {
  it('keeps batches, balances, idempotency keys, images and knowledge across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
    const first = await createSandbox({ timeScale: 2000, dataDir, config: { itemFailureRate: 0 } });
    const created = await createBatch(first, { task_name: 'kept', items: items(2) }, ALICE, {
      'idempotency-key': 'keep-1',
    });
    const { batch } = await waitForStatus(first, created.body.id, ['completed']);
    const image = await call(first.url, 'GET', `/v1/images/batches/${batch.id}/items/row1/content`, {
      key: ALICE,
    });
    await call(first.url, 'POST', '/api/openapi/kb/pushData', {
      headers: { apikey: 'kb-sandbox' },
      body: { kbId: 'kb-docs', mode: 'index', data: [{ q: 'kept question', a: 'kept answer' }] },
    });
    const balance = first.inspect().accounts[ALICE]!.balance;
    await first.close();

    const second = await createSandbox({ timeScale: 2000, dataDir, config: { itemFailureRate: 0 } });
    try {
      const again = await call(second.url, 'GET', `/v1/images/batches/${batch.id}`, { key: ALICE });
      expect(again.body).toMatchObject({
        id: batch.id,
        status: 'completed',
        task_name: 'kept',
        success_count: 2,
      });
      const imageAgain = await call(second.url, 'GET', `/v1/images/batches/${batch.id}/items/row1/content`, {
        key: ALICE,
      });
      expect(imageAgain.text).toBe(image.text);
      expect(second.inspect().accounts[ALICE]!.balance).toBe(balance);
      const replay = await createBatch(second, { task_name: 'kept', items: items(2) }, ALICE, {
        'idempotency-key': 'keep-1',
      });
      expect(replay.body.id).toBe(batch.id);
      expect(second.inspect().kbRecords).toEqual({ 'kb-docs': 1 });
      // A batch in flight when the sandbox stopped carries on after the restart.
      const inflight = await createBatch(second, { task_name: 'in flight', items: items(2) });
      await second.close();
      const third = await createSandbox({ timeScale: 2000, dataDir, config: { itemFailureRate: 0 } });
      try {
        const done = await waitForStatus(third, inflight.body.id, ['completed']);
        expect(done.batch.success_count).toBe(2);
      } finally {
        await third.close();
      }
    } finally {
      await second.close().catch(() => undefined);
    }
  });
});

describe('npm run sandbox', () => {
  it('binds 127.0.0.1, prints one listening line, and serves the demo keys', async () => {
    const cli = await startCli(['--port', '0', '--time-scale', '100']);
    try {
      expect(cli.line).toMatch(/^listening http:\/\/127\.0\.0\.1:\d+$/);
      const url = cli.line.replace('listening ', '');
      for (const key of ['sk-sandbox-alice', 'sk-sandbox-bob']) {
        expect((await call(url, 'GET', '/v1/images/batches/models', { key })).status).toBe(200);
      }
      expect(
        (await call(url, 'GET', '/v1/images/batches/models', { key: 'sk-sandbox-nobatch' })).status,
      ).toBe(403);
      const poor = await call(url, 'POST', '/v1/images/batches', {
        key: 'sk-sandbox-poor',
        body: { model: 'imgvendor-3.1-flash-image', task_name: 'p', items: items(1) },
      });
      expect(poor.status).toBe(402);
      const kb = await call(url, 'POST', '/api/openapi/kb/appKbSearch', {
        headers: { apikey: 'kb-sandbox' },
        body: { appId: 'app-sandbox', similarity: 0.5, limit: 3, prompts: [{ obj: 'Human', value: 'x' }] },
      });
      expect(kb.body.code).toBe(200);
    } finally {
      expect(await cli.stop()).toBe(0);
    }
  });

  it('takes --faults and --config, and changes faults at run time through /_sandbox/faults', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-config-'));
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        accounts: [
          { key: 'sk-team', name: 'team', balance: 5, platform: 'native', batch: true, groupMultiplier: 2 },
        ],
      }),
    );
    const cli = await startCli(['--port', '0', '--config', file, '--faults', '503=1']);
    try {
      const url = cli.line.replace('listening ', '');
      expect((await call(url, 'GET', '/v1/images/batches/models', { key: 'sk-team' })).status).toBe(503);
      const set = await call(url, 'POST', '/_sandbox/faults', { body: { spec: '' } });
      expect(set.status).toBe(200);
      expect((await call(url, 'GET', '/v1/images/batches/models', { key: 'sk-team' })).status).toBe(200);
      expect((await call(url, 'GET', '/v1/images/batches/models', { key: ALICE })).status).toBe(401);
      const bad = await call(url, 'POST', '/_sandbox/faults', { body: { spec: 'gremlins=1' } });
      expect(bad.status).toBe(400);
      const state = await call(url, 'GET', '/_sandbox/state');
      expect(state.body.accounts['sk-team'].balance).toBe(5);
    } finally {
      await cli.stop();
    }
  });

  it('explains bad arguments and exits non-zero', async () => {
    await expect(startCli(['--time-scale', 'fast'])).rejects.toThrow(
      /--time-scale must be a positive number/,
    );
    await expect(startCli(['--faults', 'gremlins=1'])).rejects.toThrow(/unknown fault kind "gremlins"/);
  });
});
