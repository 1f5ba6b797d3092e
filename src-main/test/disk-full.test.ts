import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { stagingLeftovers } from './helpers/library-audit';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

// A library on a disk that fills up during a download: a real small disk (tmpfs), mounted for the
// test, which needs the right to mount (root, as in CI's container); without it the test is skipped.

const disk = mkdtempSync(join(tmpdir(), 'small-disk-'));
const mount = (...options: string[]) =>
  spawnSync('mount', ['-t', 'tmpfs', '-o', options.join(','), 'tmpfs', disk], { encoding: 'utf8' });
const mounted = process.platform === 'linux' && mount('size=256k').status === 0;
if (!mounted) console.log('disk-full test skipped: mounting a small tmpfs needs root on Linux');
afterAll(() => {
  if (mounted) spawnSync('umount', ['--lazy', disk]);
  rmSync(disk, { recursive: true, force: true });
});

describe.skipIf(!mounted)('a library whose disk is full', () => {
  it('says so in words, keeps no part of the batch, and downloads it whole once there is room', async () => {
    // Closed by the test, before the disk is unmounted: the studio's staging lives in the library folder.
    const services = await startServices({ keepOpen: true });
    onTestFinished(() => services.close());
    await call(services, 'settings.update', { libraryDir: disk, autoDownload: false });
    const prompts = Array.from({ length: 6 }, (_, i) => `a glazed stoneware bowl number ${i + 1}`);
    const { batch } = await call(services, 'batches.submit', {
      draft: promptsDraft('full-disk', 'Full disk', prompts, 'bowl-'),
    });
    await waitUntil(
      () => call(services, 'batches.get', { id: batch.id }),
      (b) => b.status === 'completed',
      60_000,
    );
    // The studio's own files at the root (its id file, .studio/) are not batches.
    const visible = () =>
      readdirSync(disk)
        .filter((f) => !f.startsWith('.'))
        .sort();
    const before = visible();
    await call(services, 'batches.download', { id: batch.id });
    const failed = await waitUntil(
      () => call(services, 'batches.get', { id: batch.id }),
      (b) => b.download.state === 'failed' || b.download.state === 'done',
      60_000,
    );
    expect(failed.download.state).toBe('failed');
    expect(failed.download.error).toMatchObject({ code: 'STUDIO_DISK_FULL' });
    expect(JSON.stringify(failed.download)).not.toMatch(/ENOSPC|no space left|write EN/);
    // No batch folder, no staging folder in the studio's working folder, no part of an image.
    expect(visible()).toEqual(before);
    expect(stagingLeftovers(disk)).toEqual([]);

    // Room made: the same batch downloads whole, byte for byte as the gateway has it.
    expect(spawnSync('mount', ['-o', 'remount,size=64m', disk]).status).toBe(0);
    await call(services, 'batches.download', { id: batch.id });
    const done = await waitUntil(
      () => call(services, 'batches.get', { id: batch.id }),
      (b) => b.download.state === 'done' || b.download.state === 'failed',
      60_000,
    );
    expect(done.download).toMatchObject({ state: 'done', images: prompts.length });
    const folder = join(disk, done.download.folder);
    const record = JSON.parse(readFileSync(join(folder, 'batch.json'), 'utf8'));
    for (const image of record.images) {
      const served = await fetch(
        `${services.sandbox.url}/v1/images/batches/${batch.id}/items/${image.customId}/content`,
        { headers: { authorization: 'Bearer sk-sandbox-alice' } },
      );
      expect(readFileSync(join(folder, image.file)).equals(Buffer.from(await served.arrayBuffer()))).toBe(
        true,
      );
    }
  });
});
