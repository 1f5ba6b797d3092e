import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../sandbox/gateway';
import { batchDisplayState } from '../../src-shared/batch-display-state';
import { claimLease } from '../services/library/sharing/download-lease';
import { stagingLeftovers } from './helpers/library-audit';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, waitUntil, type TestServices } from './helpers/studio-fixture';

// Two studios (two data folders, two studio ids) on one library folder, with one gateway: the
// real sandbox over HTTP, behind a pass-through that counts the batch ZIP downloads it serves.
const sandbox = await createSandbox({ timeScale: 1000, config: { itemFailureRate: 0 } });
const zips = new Map<string, number>();
const counter = createServer((req, res) => {
  const zip = /\/batches\/([^/]+)\/download$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
  if (zip && req.method === 'GET' && !req.headers.range) zips.set(zip[1]!, (zips.get(zip[1]!) ?? 0) + 1);
  const upstream = request(
    `${sandbox.url}${req.url}`,
    { method: req.method, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
});
await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
const gateway = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
afterAll(async () => {
  counter.close();
  await sandbox.close();
});

const library = mkdtempSync(join(tmpdir(), 'team-library-'));

async function studio(studioId: string, dataDir?: string, keepOpen = false): Promise<TestServices> {
  const services = await startServices({
    studioId,
    gatewaySpeed: 500,
    keepOpen,
    ...(dataDir && { dataDir }),
  });
  let profile = services.profiles.list().find((p) => p.name === 'Team gateway');
  profile ??= services.profiles.save({
    name: 'Team gateway',
    baseUrl: gateway,
    gatewayKey: 'sk-sandbox-alice',
  });
  services.profiles.activate(profile.id);
  await call(services, 'settings.update', { libraryDir: library, autoDownload: false });
  return services;
}

/** A batch sent by `from`, completed on the gateway, and known to both studios. */
async function completedBatch(from: TestServices, other: TestServices, name: string): Promise<string> {
  const { batch } = await call(from, 'batches.submit', {
    draft: promptsDraft(`team-${name}`, name, ['a teapot', 'a cup', 'a saucer'], 'tea-'),
  });
  for (const services of [from, other])
    await waitUntil(
      async () => {
        await call(services, 'batches.sync', {});
        return call(services, 'batches.get', { id: batch.id }).catch(() => undefined);
      },
      (b: any) => b?.status === 'completed',
    );
  return batch.id as string;
}

const batchFolders = () => readdirSync(library).filter((n) => !n.startsWith('.'));
const downloaded = (services: TestServices, id: string) =>
  waitUntil(
    () => call(services, 'batches.get', { id }),
    (b: any) => b.download.state === 'done',
  );

describe('two studios sharing one library folder', () => {
  it('download a batch both ask for once: one fetches it, the other shows the same folder', async () => {
    const [a, b] = [await studio('studio-a'), await studio('studio-b')];
    const id = await completedBatch(a, b, 'Both at once');
    await Promise.all([call(a, 'batches.download', { id }), call(b, 'batches.download', { id })]);
    const [doneA, doneB] = [await downloaded(a, id), await downloaded(b, id)];
    expect(zips.get(id)).toBe(1);
    expect(doneA.download.folder).toBe(doneB.download.folder);
    expect(doneB.download.images).toBe(3);
    expect(batchFolders()).toEqual([doneA.download.folder]);
    expect(stagingLeftovers(library)).toEqual([]);
    // No lease left behind once the download is over.
    expect(readdirSync(join(library, '.studio', 'leases'))).toEqual([]);
  });

  it('wait while another studio downloads it, say so, and download it once that studio is gone', async () => {
    const [a, b] = [await studio('studio-c'), await studio('studio-d')];
    const id = await completedBatch(a, b, 'Someone else has it');
    // A third studio of the team holds the batch's lease: it is downloading it now.
    const other = await claimLease(library, id, 'studio-e');
    expect(other).toBeDefined();
    await call(a, 'batches.download', { id });
    const waiting = await waitUntil(
      () => call(a, 'batches.get', { id }),
      (x: any) => x.download.elsewhere === true,
    );
    expect(batchDisplayState(waiting)).toEqual({ kind: 'downloading-elsewhere' });
    expect(zips.get(id)).toBeUndefined();
    // That studio stops without a folder (it quit): the waiting one downloads the batch itself.
    await other!.release();
    const done = await downloaded(a, id);
    expect(zips.get(id)).toBe(1);
    // The other studio's "Download now" adopts the folder now in the library: nothing fetched again.
    await call(b, 'batches.download', { id });
    expect((await downloaded(b, id)).download.folder).toBe(done.download.folder);
    expect(zips.get(id)).toBe(1);
    // "Download again" is the one way to fetch it anew, and it replaces the folder in place.
    await call(b, 'batches.download', { id, mode: 'replace' });
    await waitUntil(
      () => zips.get(id) === 2 && !b.batches.downloader.isRunning(b.profiles.active().id, id),
      (over) => over,
    );
    expect(batchFolders().filter((n) => n.endsWith(id))).toEqual([done.download.folder]);
  });

  it('a restart of one studio leaves the other’s staging area alone', async () => {
    const a = await studio('studio-f', undefined, true);
    const b = await studio('studio-g');
    const id = await completedBatch(a, b, 'Staging of its own');
    await call(b, 'batches.download', { id });
    await downloaded(b, id);
    // B's area, claimed by its download, and B still running.
    const ownerB = join(library, '.studio', 'staging', 'studio-g', 'owner.json');
    expect(existsSync(ownerB)).toBe(true);
    await a.close();
    const again = await studio('studio-f', a.dataDir);
    expect(again.batches.list()).toBeDefined();
    expect(existsSync(ownerB)).toBe(true);
  });
});
