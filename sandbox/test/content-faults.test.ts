import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ALICE, createBatch, items, startSandbox, waitForStatus } from './harness';

async function get(base: string, path: string) {
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${ALICE}` } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    data: Buffer.from(await res.arrayBuffer()),
  };
}

describe('the badimage fault', () => {
  it('serves an error page in place of each image, in the ZIP and as item content, then the images again', async () => {
    const sandbox = await startSandbox({ timeScale: 2000 });
    const answer = await createBatch(sandbox, { items: items(2) });
    const batch = `/v1/images/batches/${answer.body.id}`;
    await waitForStatus(sandbox, answer.body.id, ['completed']);

    sandbox.faults.set('badimage=#2');
    const bad = await get(sandbox.url, `${batch}/items/row1/content`);
    expect([bad.status, bad.type]).toEqual([200, 'image/png']);
    expect(bad.data.toString()).toContain('502 Bad Gateway');
    await expect(sharp(bad.data).metadata()).rejects.toThrow();

    // The archive itself is sound: only what it holds is wrong.
    const zip = await get(sandbox.url, `${batch}/download`);
    const file = join(mkdtempSync(join(tmpdir(), 'sandbox-badimage-')), 'batch.zip');
    writeFileSync(file, zip.data);
    expect(execFileSync('unzip', ['-t', file]).toString()).toContain('No errors detected');
    const names = execFileSync('unzip', ['-Z1', file]).toString().split('\n');
    const image = names.find((n) => n.startsWith('images/'))!;
    expect(execFileSync('unzip', ['-p', file, image]).toString()).toContain('502 Bad Gateway');

    const good = await get(sandbox.url, `${batch}/items/row1/content`);
    expect((await sharp(good.data).metadata()).format).toBe('png');
    expect(sandbox.faults.fired.badimage).toBe(2);
  });

  it('is never picked by all=R', async () => {
    const sandbox = await startSandbox({ timeScale: 2000 });
    const answer = await createBatch(sandbox, { items: items(1) });
    await waitForStatus(sandbox, answer.body.id, ['completed']);
    sandbox.faults.set('all=1,seed=3,slow_ms=0');
    for (let i = 0; i < 20; i++)
      await get(sandbox.url, `/v1/images/batches/${answer.body.id}/items/row1/content`).catch(
        () => undefined,
      );
    expect(sandbox.faults.fired.badimage ?? 0).toBe(0);
  });
});
