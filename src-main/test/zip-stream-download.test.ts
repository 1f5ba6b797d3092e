import { readFileSync } from 'node:fs';
import type { Sandbox } from '../../sandbox/gateway';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

// A batch ZIP from a gateway that writes it as a streaming writer does (data descriptors), cut off
// half-way once: with Range honoured the download resumes where it broke; without, the images that
// had arrived whole are kept and only the rest are fetched one by one. Either way the library gets
// every image, byte for byte as the gateway has it.

/** Every request the studio makes to the gateway, by path, with its Range header, as the gateway received it. */
function recordRequests(sandbox: Sandbox): { seen: { path: string; range?: string }[]; stop: () => void } {
  const seen: { path: string; range?: string }[] = [];
  const stop = sandbox.onRequest((req) =>
    seen.push({ path: new URL(req.url ?? '/', 'http://x').pathname, range: req.headers.range }),
  );
  return { seen, stop };
}

/** Far longer than any test waits: only the studio's stall limit can end such an answer. */
const HELD_OPEN_MS = 600_000;

async function cutDownload(zipRanges: boolean, fault = 'truncate=#1,cut_at=0.5') {
  const services = await startServices({
    sandbox: { config: { zipDescriptors: true, zipRanges } },
    downloadStallMs: 500,
  });
  await call(services, 'settings.update', { autoDownload: false });
  const prompts = Array.from({ length: 6 }, (_, i) => `a stoneware jug number ${i + 1}`);
  const { batch } = await call(services, 'batches.submit', {
    draft: promptsDraft(`cut-${zipRanges}`, 'Cut download', prompts, 'jug-'),
  });
  await waitUntil(
    () => call(services, 'batches.get', { id: batch.id }),
    (b) => b.status === 'completed',
    60_000,
  );
  services.sandbox.faults.set(fault);
  const recording = recordRequests(services.sandbox);
  const requests = recording.seen;
  let done;
  try {
    await call(services, 'batches.download', { id: batch.id });
    done = await waitUntil(
      () => call(services, 'batches.get', { id: batch.id }),
      (b) => b.download.state === 'done' || b.download.state === 'failed',
      60_000,
    );
  } finally {
    // The checks' own requests below are not the studio's.
    recording.stop();
  }
  expect(done.download.state).toBe('done');
  // Byte for byte what the gateway serves for each item.
  const folder = join(services.settings.get().libraryDir, done.download.folder!);
  const record = JSON.parse(readFileSync(join(folder, 'batch.json'), 'utf8'));
  expect(record.images).toHaveLength(prompts.length);
  for (const image of record.images) {
    const served = await fetch(
      `${services.sandbox.url}/v1/images/batches/${batch.id}/items/${image.customId}/content`,
      { headers: { authorization: 'Bearer sk-sandbox-alice' } },
    );
    expect(readFileSync(join(folder, image.file)).equals(Buffer.from(await served.arrayBuffer()))).toBe(true);
  }
  return { done, requests, images: prompts.length };
}

describe('a batch ZIP cut off half-way', () => {
  it('resumes from its last whole entry where the gateway honours Range', async () => {
    const { done, requests } = await cutDownload(true);
    expect(done.download.source).toBe('zip');
    const zip = requests.filter((r) => r.path.endsWith('/download'));
    expect(zip).toHaveLength(2);
    expect(zip[1]!.range).toMatch(/^bytes=[1-9]\d*-$/);
    expect(requests.filter((r) => r.path.endsWith('/content'))).toHaveLength(0);
  });

  it('takes a gateway that stops sending for a cut once the stall limit passes, and resumes', async () => {
    // Half the archive, then silence with the connection held open: with only a limit on the
    // whole download, this would wait it out (ten minutes) before trying again.
    const { done, requests } = await cutDownload(true, `stall=#1,cut_at=0.5,slow_ms=${HELD_OPEN_MS}`);
    expect(done.download.source).toBe('zip');
    const zip = requests.filter((r) => r.path.endsWith('/download'));
    expect(zip[0]!.range).toBeUndefined();
    // Resumed where the silence began; a resume the gateway answered 429 (the cut answer's slot
    // not yet given back) is asked again.
    expect(zip.slice(1).every((r) => /^bytes=[1-9]\d*-$/.test(r.range ?? ''))).toBe(true);
    expect(zip.length).toBeGreaterThanOrEqual(2);
    expect(requests.filter((r) => r.path.endsWith('/content'))).toHaveLength(0);
  });

  it('keeps the images that arrived whole, and fetches only the rest, where it does not', async () => {
    const { done, requests, images } = await cutDownload(false);
    expect(done.download.source).toBe('items');
    const fetched = requests.filter((r) => r.path.endsWith('/content')).length;
    expect(fetched).toBeGreaterThan(0);
    expect(fetched).toBeLessThan(images);
  });
});
