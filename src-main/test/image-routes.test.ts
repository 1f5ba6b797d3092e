import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imagePaths } from '../../src-shared/image-paths';
import { call, waitUntil } from './helpers/studio-fixture';
import { startTestBrowserMode } from './helpers/browser-mode-fixture';

// Items fail only where a prompt says [fail]: the preview test's one item must succeed, and the
// sandbox's default (8 %) left it waiting for a download that never came, one run in twelve.
process.env.STUDIO_SANDBOX_ITEM_FAILURE_RATE = '0';
const { host, services } = await startTestBrowserMode('images');

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${host.origin}${path}`, { headers });

/** What the page does once at start: trades the token for the image cookie. */
async function sessionCookie(): Promise<string> {
  const res = await fetch(`${host.origin}/api/session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${host.token}` },
  });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('set-cookie')!;
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Strict/i);
  expect(setCookie).toMatch(/Path=\//i);
  expect(setCookie).not.toContain(host.token);
  return setCookie.split(';')[0]!;
}

/** A 16:9 realtime result, saved into the library's Realtime collection; answers its library id. */
async function wideLibraryImage(): Promise<{ jobId: string; libraryId: string }> {
  const job = await call(services, 'realtime.generate', {
    prompt: 'A wide mountain panorama',
    model: 'imgvendor-3.1-flash-image',
    aspectRatio: '16:9',
  });
  await waitUntil(
    () => call(services, 'realtime.jobs'),
    (jobs: { id: string; state: string }[]) => jobs.some((j) => j.id === job.id && j.state === 'done'),
  );
  return { jobId: job.id, libraryId: await call(services, 'realtime.save', { id: job.id }) };
}

const wide = await wideLibraryImage();

describe('images by URL in browser mode', () => {
  it('refuses an image without the session cookie, and serves it with the cookie', async () => {
    const path = imagePaths.libraryThumb(wide.libraryId, 256);
    const bare = await get(path);
    expect(bare.status).toBe(401);
    expect(((await bare.json()) as { error: { code: string } }).error.code).toBe('STUDIO_UNAUTHORIZED');
    expect((await get(path, { cookie: 'studio_images_1=forged' })).status).toBe(401);
    expect((await get(`${path}?token=${host.token}`)).status).toBe(401);

    const cookie = await sessionCookie();
    const res = await get(path, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format).toBe('webp');
  });

  it('refuses images asked for from a foreign Host or Origin even with the cookie', async () => {
    const cookie = await sessionCookie();
    const path = imagePaths.libraryThumb(wide.libraryId, 256);
    const foreignOrigin = await get(path, { cookie, origin: 'https://evil.example' });
    expect(foreignOrigin.status).toBe(403);
    const foreignHost = await new Promise<number>((resolve, reject) => {
      // fetch does not let a caller set Host; a rebinding page's request carries its own name.
      import('node:http')
        .then(({ request }) => {
          const req = request(`${host.origin}${path}`, { headers: { cookie, host: 'evil.example' } }, (res) =>
            resolve(res.statusCode ?? 0),
          );
          req.on('error', reject);
          req.end();
        })
        .catch(reject);
    });
    expect(foreignHost).toBe(403);
  });

  it('answers 304 when the browser revalidates with the ETag', async () => {
    const cookie = await sessionCookie();
    const path = imagePaths.libraryThumb(wide.libraryId, 640);
    const first = await get(path, { cookie });
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const again = await get(path, { cookie, 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const original = await get(imagePaths.libraryOriginal(wide.libraryId), { cookie });
    const revalidated = await get(imagePaths.libraryOriginal(wide.libraryId), {
      cookie,
      'if-none-match': original.headers.get('etag')!,
    });
    expect(revalidated.status).toBe(304);
  });

  it('keeps the aspect ratio of a 16:9 image in both thumbnail sizes', async () => {
    const cookie = await sessionCookie();
    for (const size of [256, 640] as const) {
      const res = await get(imagePaths.libraryThumb(wide.libraryId, size), { cookie });
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBe(size);
      expect(meta.width! / meta.height!).toBeCloseTo(16 / 9, 1);
    }
  });

  it('streams the original byte for byte, and the realtime result and its input by job', async () => {
    const cookie = await sessionCookie();
    const original = await get(imagePaths.libraryOriginal(wide.libraryId), { cookie });
    expect(original.status).toBe(200);
    const bytes = Buffer.from(await original.arrayBuffer());
    expect(Number(original.headers.get('content-length'))).toBe(bytes.length);
    const detail = await call(services, 'library.detail', { id: wide.libraryId });
    expect(original.headers.get('content-type')).toBe(detail.mime);
    const meta = await sharp(bytes).metadata();
    expect(meta.width! / meta.height!).toBeCloseTo(16 / 9, 1);

    const result = await get(imagePaths.realtime(wide.jobId, 'result', 0), { cookie });
    expect(result.status).toBe(200);
    expect(Buffer.from(await result.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await get(imagePaths.realtime(wide.jobId, 'input', 0), { cookie })).status).toBe(404);
  });

  it('serves a reference thumbnail by its content id, whole and immutable', async () => {
    const cookie = await sessionCookie();
    const png = await sharp({
      create: { width: 1600, height: 900, channels: 3, background: { r: 200, g: 40, b: 40 } },
    })
      .png()
      .toBuffer();
    const ref = await call(services, 'references.add', {
      name: 'wide.png',
      dataBase64: png.toString('base64'),
    });
    const res = await get(imagePaths.referenceThumb(ref.id), { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/immutable/);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([256, 144]);
    expect((await get(imagePaths.referenceThumb('0'.repeat(64)), { cookie })).status).toBe(404);
  });

  it("serves a batch item's preview at the path batches.preview answers", async () => {
    const cookie = await sessionCookie();
    const draft = {
      id: `img-${Date.now()}`,
      name: 'Preview by URL',
      model: 'imgvendor-3.1-flash-image',
      items: [{ customId: 'row-1', prompt: 'A red kite', outputCount: 1, referenceIds: [] }],
      sharedReferenceIds: [],
      references: [],
      responseMime: 'image/png',
    };
    const { batch } = await call(services, 'batches.submit', { draft });
    await waitUntil(
      () => call(services, 'batches.get', { id: batch.id }),
      (b: { download: { state: string } }) => b.download.state === 'done',
    );
    const preview = await call(services, 'batches.preview', { id: batch.id, customId: 'row-1' });
    expect(preview).toEqual({ path: imagePaths.batchPreview(batch.id, 'row-1'), source: 'library' });
    expect(JSON.stringify(preview)).not.toContain('base64');
    const res = await get(preview.path, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBeGreaterThan(0);
  });

  it('refuses ids that try to leave the library, and unknown sizes', async () => {
    const cookie = await sessionCookie();
    for (const path of [
      `/images/library/${encodeURIComponent('../../etc/passwd')}/original`,
      `/images/library/..%2F..%2F..%2Fetc%2Fpasswd/original`,
      `/images/library/${encodeURIComponent(wide.libraryId.replace(/[^/]+$/, '../../batch.json'))}/original`,
      `/images/library/%00/original`,
      `/images/library/%E0%A4%A/original`,
      `/images/references/..%2F..%2Fsecrets.json/thumb`,
      `/images/realtime/..%2Fjobs.json/result/0`,
      imagePaths.libraryThumb(wide.libraryId, 999 as 256),
    ]) {
      const res = await get(path, { cookie });
      expect([400, 404], path).toContain(res.status);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const text = await res.text();
      expect(text).not.toMatch(/root:|sk-sandbox|Error:\s+at /);
    }
  });
});
