import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ALICE, BOB, call, createBatch, items, pngOf, startSandbox, waitForStatus } from './harness';

const fast = await startSandbox({ timeScale: 2000 });

async function completedBatch(body: Record<string, unknown>, key = ALICE) {
  const answer = await createBatch(fast, body, key);
  expect(answer.status).toBe(200);
  return (await waitForStatus(fast, answer.body.id, ['completed'], key)).batch;
}

async function download(
  base: string,
  path: string,
  key = ALICE,
): Promise<{ status: number; data: Buffer; type: string | null }> {
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${key}` } });
  return {
    status: res.status,
    data: Buffer.from(await res.arrayBuffer()),
    type: res.headers.get('content-type'),
  };
}

describe('state progression', () => {
  it('goes queued -> running -> processing_results -> settling -> completed, counting items as they finish', async () => {
    const paced = await startSandbox({ timeScale: 150 });
    const answer = await createBatch(paced, { items: items(6) });
    const seenCounts: number[] = [];
    const seen: string[] = [];
    for (;;) {
      const { body } = await call(paced.url, 'GET', `/v1/images/batches/${answer.body.id}`, { key: ALICE });
      if (seen[seen.length - 1] !== body.status) seen.push(body.status);
      if (body.status === 'running') seenCounts.push(body.success_count + body.fail_count);
      if (body.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(seen).toEqual(['queued', 'running', 'processing_results', 'settling', 'completed']);
    // Items finish one by one while running, so progress can be shown.
    expect(new Set(seenCounts).size).toBeGreaterThan(2);
  });

  it('at time scale 1 a batch takes minutes', async () => {
    const t = (await startSandbox()).config.timing;
    expect(t.queuedS + t.runningS + t.processingS + t.settlingS).toBeGreaterThanOrEqual(120);
  });

  it('outputs expire into output_deleted after the retention period', async () => {
    const brief = await startSandbox({ timeScale: 2000, config: { timing: { retentionS: 200 } } });
    const answer = await createBatch(brief, { items: items(1) });
    const { seen } = await waitForStatus(brief, answer.body.id, ['output_deleted']);
    expect(seen.slice(-2)).toEqual(['completed', 'output_deleted']);
    const gone = await call(brief.url, 'GET', `/v1/images/batches/${answer.body.id}/download`, {
      key: ALICE,
    });
    expect(gone.status).toBe(410);
    expect(gone.body.error.code).toBe('BATCH_IMAGE_OUTPUT_DELETED');
  });
});

describe('results', () => {
  it('the ZIP passes unzip -t and its manifest matches its files', async () => {
    const png = await pngOf(80, 80, '#ff0000');
    const batch = await completedBatch({
      items: [
        {
          custom_id: 'fox',
          prompt: 'a red fox, 一只红狐狸',
          output_count: 2,
          reference_images: [{ mime_type: 'image/png', data: png.toString('base64') }],
        },
        { custom_id: 'owl', prompt: 'an owl' },
        { custom_id: 'bad', prompt: 'broken [fail:SAFETY_BLOCKED]' },
      ],
    });
    expect(batch).toMatchObject({ item_count: 4, success_count: 3, fail_count: 1 });
    const zip = await download(fast.url, `/v1/images/batches/${batch.id}/download`);
    expect(zip.status).toBe(200);
    expect(zip.type).toBe('application/zip');

    const dir = mkdtempSync(join(tmpdir(), 'sandbox-zip-'));
    writeFileSync(join(dir, 'b.zip'), zip.data);
    expect(execFileSync('unzip', ['-t', join(dir, 'b.zip')]).toString()).toContain('No errors detected');
    execFileSync('unzip', ['-q', join(dir, 'b.zip'), '-d', join(dir, 'x')]);

    const manifest = JSON.parse(readFileSync(join(dir, 'x', 'manifest.json'), 'utf8'));
    expect(readFileSync(join(dir, 'x', 'manifest.json'), 'utf8')).toContain('\n  "batch_id"');
    expect(manifest).toMatchObject({ batch_id: batch.id, item_count: 4, success_count: 3, fail_count: 1 });
    expect(manifest.files.map((f: any) => f.filename).sort()).toEqual(
      readdirSync(join(dir, 'x', 'images'))
        .map((f) => `images/${f}`)
        .sort(),
    );
    expect(manifest.files.map((f: any) => f.custom_id).sort()).toEqual(['fox_01', 'fox_02', 'owl']);
    for (const file of manifest.files) {
      expect(file).toMatchObject({ mime_type: 'image/png', image_index: 0 });
      const meta = await sharp(join(dir, 'x', file.filename)).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 1024, height: 1024 });
    }
    const errors = JSON.parse(readFileSync(join(dir, 'x', 'errors.json'), 'utf8'));
    expect(errors).toEqual([{ custom_id: 'bad', code: 'SAFETY_BLOCKED', message: expect.any(String) }]);

    // The same prompt and index give the same picture; different items differ.
    const a = readFileSync(join(dir, 'x', 'images', 'fox_01.png'));
    const b = readFileSync(join(dir, 'x', 'images', 'fox_02.png'));
    expect(a.equals(b)).toBe(false);
    const again = await download(fast.url, `/v1/images/batches/${batch.id}/items/fox_01/content`);
    expect(again.data.equals(a)).toBe(true);
  });

  it('draws the reference image in a corner of the output', async () => {
    const red = await pngOf(80, 80, '#ff0000');
    const batch = await completedBatch({
      items: [
        {
          custom_id: 'with',
          prompt: 'same prompt',
          reference_images: [{ mime_type: 'image/png', data: red.toString('base64') }],
        },
      ],
    });
    const image = await download(fast.url, `/v1/images/batches/${batch.id}/items/with/content`);
    // The thumbnail sits in the top-right corner, inside the margin.
    const { data, info } = await sharp(image.data)
      .extract({ left: 1024 - 61 - 120, top: 80, width: 100, height: 100 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    let red_ = 0;
    for (let i = 0; i < data.length; i += info.channels)
      if (data[i]! > 200 && data[i + 1]! < 60 && data[i + 2]! < 60) red_++;
    expect(red_ / (data.length / info.channels)).toBeGreaterThan(0.9);
  });

  it('serves JPEG and WebP when asked', async () => {
    for (const [mime, format, ext] of [
      ['image/jpeg', 'jpeg', 'jpg'],
      ['image/webp', 'webp', 'webp'],
    ] as const) {
      const batch = await completedBatch({
        response_mime_type: mime,
        items: [{ custom_id: 'one', prompt: 'x' }],
      });
      const list = await call(fast.url, 'GET', `/v1/images/batches/${batch.id}/items`, { key: ALICE });
      expect(list.body.data[0]).toMatchObject({ mime_type: mime, file_extension: ext, image_count: 1 });
      const image = await download(fast.url, `/v1/images/batches/${batch.id}/items/one/content`);
      expect(image.type).toBe(mime);
      expect((await sharp(image.data).metadata()).format).toBe(format);
    }
  });

  it('item content: image_index 0 by default, out of range 400, failed 409, unknown 404', async () => {
    const batch = await completedBatch({
      items: [
        { custom_id: 'ok', prompt: 'x' },
        { custom_id: 'no', prompt: '[fail]' },
      ],
    });
    const base = `/v1/images/batches/${batch.id}/items`;
    const plain = await download(fast.url, `${base}/ok/content`);
    const zero = await download(fast.url, `${base}/ok/content?image_index=0`);
    expect(plain.status).toBe(200);
    expect(zero.data.equals(plain.data)).toBe(true);
    const range = await call(fast.url, 'GET', `${base}/ok/content?image_index=1`, { key: ALICE });
    expect([range.status, range.body.error.code]).toEqual([400, 'BATCH_IMAGE_ITEM_IMAGE_INDEX_OUT_OF_RANGE']);
    const failed = await call(fast.url, 'GET', `${base}/no/content`, { key: ALICE });
    expect([failed.status, failed.body.error.code]).toEqual([409, 'BATCH_IMAGE_ITEM_FAILED']);
    const unknown = await call(fast.url, 'GET', `${base}/${encodeURIComponent('nope/../x')}/content`, {
      key: ALICE,
    });
    expect(unknown.status).toBe(404);
  });

  it('items list: status filter accepts success and succeeded, and failures carry code and source', async () => {
    const batch = await completedBatch({
      items: [
        { custom_id: 'ok', prompt: 'x' },
        { custom_id: 'no', prompt: '[fail:PROVIDER_RESULT_MISSING]' },
      ],
    });
    const base = `/v1/images/batches/${batch.id}/items`;
    const success = await call(fast.url, 'GET', `${base}?status=success`, { key: ALICE });
    const succeeded = await call(fast.url, 'GET', `${base}?status=succeeded`, { key: ALICE });
    expect(success.body.data.map((i: any) => i.custom_id)).toEqual(['ok']);
    expect(succeeded.body.data).toEqual(success.body.data);
    expect(success.body.data[0].status).toBe('succeeded');
    const failed = await call(fast.url, 'GET', `${base}?status=failed`, { key: ALICE });
    expect(failed.body.data).toEqual([
      {
        custom_id: 'no',
        status: 'failed',
        prompt_preview: '[fail:PROVIDER_RESULT_MISSING]',
        mime_type: null,
        file_extension: null,
        image_count: 0,
        error: { code: 'PROVIDER_RESULT_MISSING', message: expect.any(String), source: 'system' },
      },
    ]);
    const bad = await call(fast.url, 'GET', `${base}?status=done`, { key: ALICE });
    expect(bad.status).toBe(400);
  });

  it('spells a success "success" when the gateway variant says so', async () => {
    const spec = await startSandbox({ timeScale: 2000, config: { variant: { itemSuccessWord: 'success' } } });
    const answer = await createBatch(spec, { items: items(1) });
    await waitForStatus(spec, answer.body.id, ['completed']);
    const list = await call(spec.url, 'GET', `/v1/images/batches/${answer.body.id}/items`, { key: ALICE });
    expect(list.body.data[0].status).toBe('success');
  });

  it('BATCH_IMAGE_NOT_READY 409 before completion', async () => {
    const slow = await startSandbox({ timeScale: 1 });
    const answer = await createBatch(slow, { items: items(1) });
    const zip = await call(slow.url, 'GET', `/v1/images/batches/${answer.body.id}/download`, { key: ALICE });
    expect([zip.status, zip.body.error.code]).toEqual([409, 'BATCH_IMAGE_NOT_READY']);
    const item = await call(slow.url, 'GET', `/v1/images/batches/${answer.body.id}/items/row1/content`, {
      key: ALICE,
    });
    expect([item.status, item.body.error.code]).toEqual([409, 'BATCH_IMAGE_NOT_READY']);
  });

  it('max_items only lowers the cap, and too many successes for the cap is 400', async () => {
    const batch = await completedBatch({ items: items(3) });
    const capped = await call(fast.url, 'GET', `/v1/images/batches/${batch.id}/download?max_items=2`, {
      key: ALICE,
    });
    expect([capped.status, capped.body.error.code]).toEqual([400, 'BATCH_IMAGE_ZIP_TOO_MANY_ITEMS']);
    const raised = await download(
      fast.url,
      `/v1/images/batches/${batch.id}/download?max_items=1000&status=success`,
    );
    expect(raised.status).toBe(200);
  });

  it('BATCH_IMAGE_DOWNLOAD_LIMITED 429 while another download of the key is in flight, previews included', async () => {
    const limited = await startSandbox({ timeScale: 2000 });
    const answer = await createBatch(limited, { items: items(2) });
    await waitForStatus(limited, answer.body.id, ['completed']);
    limited.faults.set('slow=#1,slow_ms=1500');
    const first = download(limited.url, `/v1/images/batches/${answer.body.id}/download`);
    await new Promise((r) => setTimeout(r, 300));
    expect(limited.inspect().accounts[ALICE]!.downloadsInFlight).toBe(1);
    const zip = await call(limited.url, 'GET', `/v1/images/batches/${answer.body.id}/download`, {
      key: ALICE,
    });
    const preview = await call(
      limited.url,
      'GET',
      `/v1/images/batches/${answer.body.id}/items/row1/content`,
      { key: ALICE },
    );
    expect([zip.status, zip.body.error.code]).toEqual([429, 'BATCH_IMAGE_DOWNLOAD_LIMITED']);
    expect([preview.status, preview.body.error.code]).toEqual([429, 'BATCH_IMAGE_DOWNLOAD_LIMITED']);
    // Another user's downloads are counted apart.
    expect((await call(limited.url, 'GET', '/v1/images/batches', { key: BOB })).status).toBe(200);
    expect((await first).status).toBe(200);
    const after = await download(limited.url, `/v1/images/batches/${answer.body.id}/items/row1/content`);
    expect(after.status).toBe(200);
  });

  it('a client that walks away mid-download frees the slot', async () => {
    const limited = await startSandbox({ timeScale: 2000 });
    const answer = await createBatch(limited, { items: items(2) });
    await waitForStatus(limited, answer.body.id, ['completed']);
    limited.faults.set('slow=#1,slow_ms=5000');
    await new Promise<void>((resolve) => {
      const req = request(`${limited.url}/v1/images/batches/${answer.body.id}/download`, {
        headers: { authorization: `Bearer ${ALICE}` },
      });
      req.on('response', (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => resolve());
      req.end();
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(limited.inspect().accounts[ALICE]!.downloadsInFlight).toBe(0);
  });

  it('a truncate fault answers 200 with a ZIP that unzip rejects, and does not mark it downloaded', async () => {
    const cut = await startSandbox({ timeScale: 2000 });
    const answer = await createBatch(cut, { items: items(3) });
    await waitForStatus(cut, answer.body.id, ['completed']);
    cut.faults.set('truncate=#1');
    const zip = await download(cut.url, `/v1/images/batches/${answer.body.id}/download`);
    expect(zip.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cut-'));
    writeFileSync(join(dir, 'cut.zip'), zip.data);
    expect(() => execFileSync('unzip', ['-t', join(dir, 'cut.zip')], { stdio: 'pipe' })).toThrow();
    const notYet = await call(cut.url, 'GET', '/v1/images/batches?downloaded=true', { key: ALICE });
    expect(notYet.body.data).toEqual([]);
    const whole = await download(cut.url, `/v1/images/batches/${answer.body.id}/download`);
    writeFileSync(join(dir, 'whole.zip'), whole.data);
    expect(execFileSync('unzip', ['-t', join(dir, 'whole.zip')]).toString()).toContain('No errors detected');
    const now = await call(cut.url, 'GET', '/v1/images/batches?downloaded=yes', { key: ALICE });
    expect(now.body.data.map((b: any) => b.id)).toEqual([answer.body.id]);
  });
});

describe('cancel, delete outputs, delete record', () => {
  it('cancel of a queued batch is immediate; of a running one, later; of a terminal one, a no-op', async () => {
    const paced = await startSandbox({ timeScale: 100 });
    const queued = await createBatch(paced, { items: items(2) });
    const now = await call(paced.url, 'POST', `/v1/images/batches/${queued.body.id}/cancel`, { key: ALICE });
    expect([now.status, now.body.status]).toEqual([200, 'cancelled']);

    const upstream = await createBatch(paced, { items: items(2) });
    await waitForStatus(paced, upstream.body.id, ['running']);
    const later = await call(paced.url, 'POST', `/v1/images/batches/${upstream.body.id}/cancel`, {
      key: ALICE,
    });
    expect([later.status, later.body.status]).toEqual([200, 'running']);
    const { batch } = await waitForStatus(paced, upstream.body.id, ['cancelled', 'completed']);
    expect(batch.status).toBe('cancelled');
    expect(batch.actual_cost).toBe(0);

    const again = await call(paced.url, 'POST', `/v1/images/batches/${queued.body.id}/cancel`, {
      key: ALICE,
    });
    expect([again.status, again.body.status]).toEqual([200, 'cancelled']);
    expect(paced.inspect().accounts[ALICE]!.held).toBe(0);
  });

  it('a cancel that fails upstream is BATCH_IMAGE_CANCEL_FAILED 502', async () => {
    const faulty = await startSandbox({ timeScale: 1, faults: 'cancel_failed=1' });
    const answer = await createBatch(faulty, { items: items(1) });
    const res = await call(faulty.url, 'POST', `/v1/images/batches/${answer.body.id}/cancel`, { key: ALICE });
    expect([res.status, res.body.error.code]).toEqual([502, 'BATCH_IMAGE_CANCEL_FAILED']);
  });

  it('delete outputs: from completed only, repeatable, then downloads are 410', async () => {
    const batch = await completedBatch({ items: items(1) });
    const del = await call(fast.url, 'DELETE', `/v1/images/batches/${batch.id}/outputs`, { key: ALICE });
    expect([del.status, del.body.status]).toEqual([200, 'output_deleted']);
    const again = await call(fast.url, 'DELETE', `/v1/images/batches/${batch.id}/outputs`, { key: ALICE });
    expect([again.status, again.body.status]).toEqual([200, 'output_deleted']);
    const zip = await call(fast.url, 'GET', `/v1/images/batches/${batch.id}/download`, { key: ALICE });
    expect([zip.status, zip.body.error.code]).toEqual([410, 'BATCH_IMAGE_OUTPUT_DELETED']);
    const item = await call(fast.url, 'GET', `/v1/images/batches/${batch.id}/items/row1/content`, {
      key: ALICE,
    });
    expect([item.status, item.body.error.code]).toEqual([410, 'BATCH_IMAGE_OUTPUT_DELETED']);

    const slow = await startSandbox({ timeScale: 1 });
    const queued = await createBatch(slow, { items: items(1) });
    await call(slow.url, 'POST', `/v1/images/batches/${queued.body.id}/cancel`, { key: ALICE });
    const refused = await call(slow.url, 'DELETE', `/v1/images/batches/${queued.body.id}/outputs`, {
      key: ALICE,
    });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'BATCH_IMAGE_OUTPUT_DELETE_NOT_READY']);
  });

  it('delete record: 204 for terminal batches, 409 otherwise; the batch then disappears', async () => {
    const slow = await startSandbox({ timeScale: 1 });
    const queued = await createBatch(slow, { items: items(1) });
    const early = await call(slow.url, 'DELETE', `/v1/images/batches/${queued.body.id}`, { key: ALICE });
    expect([early.status, early.body.error.code]).toEqual([409, 'BATCH_IMAGE_RECORD_DELETE_NOT_READY']);

    const batch = await completedBatch({ items: items(1) });
    const del = await call(fast.url, 'DELETE', `/v1/images/batches/${batch.id}`, { key: ALICE });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const gone = await call(fast.url, 'GET', `/v1/images/batches/${batch.id}`, { key: ALICE });
    expect([gone.status, gone.body.error.code]).toEqual([404, 'BATCH_IMAGE_NOT_FOUND']);
    const list = await call(fast.url, 'GET', '/v1/images/batches?limit=100', { key: ALICE });
    expect(list.body.data.some((b: any) => b.id === batch.id)).toBe(false);
  });

  it('retry lineage is one level deep: a retry of a retry points at the root', async () => {
    const root = await createBatch(fast, { items: items(1) });
    const child = await createBatch(fast, { parent_batch_id: root.body.id, items: items(1) });
    const grandchild = await createBatch(fast, { parent_batch_id: child.body.id, items: items(1) });
    expect(child.body.parent_batch_id).toBe(root.body.id);
    expect(grandchild.body.parent_batch_id).toBe(root.body.id);
  });
});
