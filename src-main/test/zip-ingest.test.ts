import { randomBytes } from 'node:crypto';
import fs, { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { extractBatchZip } from './helpers/zip-on-disk';

const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ff8800' } })
  .png()
  .toBuffer();

function manifest(files: { custom_id: string; filename: string }[], extra: Record<string, unknown> = {}) {
  return strToU8(
    JSON.stringify({
      batch_id: 'b',
      success_count: files.length,
      files: files.map((f) => ({ ...f, mime_type: 'image/png', image_index: 0 })),
      ...extra,
    }),
  );
}

function zipOf(entries: Zippable): Buffer {
  return Buffer.from(zipSync(entries, { level: 0 }));
}

async function ingest(zip: Buffer, expectedSuccessCount?: number) {
  const dir = mkdtempSync(join(tmpdir(), 'zip-ingest-'));
  const file = join(dir, 'in.zip');
  writeFileSync(file, zip);
  const target = join(dir, 'out');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(target);
  const run = extractBatchZip({
    zipFile: file,
    targetDir: target,
    expectedSuccessCount,
    nameFor: (id, _i, ext) => `${id.replace(/[^\w-]/g, '_')}.${ext}`,
  });
  return { run, dir, target };
}

async function expectRefused(zip: Buffer, reason: RegExp, expectedSuccessCount?: number) {
  const { run, dir, target } = await ingest(zip, expectedSuccessCount);
  await expect(run).rejects.toMatchObject({
    code: 'STUDIO_ZIP_REJECTED',
    message: expect.stringMatching(reason),
  });
  // Nothing is ever written outside the target folder.
  expect(readdirSync(dir).sort()).toEqual(['in.zip', 'out']);
  return target;
}

describe('batch ZIP verification', () => {
  it('extracts a well-formed archive under the names the studio chooses', async () => {
    const zip = zipOf({
      'images/a.png': png,
      'images/b.png': png,
      'manifest.json': manifest([
        { custom_id: 'a', filename: 'images/a.png' },
        { custom_id: 'b', filename: 'images/b.png' },
      ]),
      'errors.json': strToU8('[{"custom_id":"c","code":"SAFETY_BLOCKED","message":"no"}]'),
    });
    const { run, target } = await ingest(zip, 2);
    const result = await run;
    expect(result.images.map((i) => i.file)).toEqual(['a.png', 'b.png']);
    expect(result.errors[0]!.code).toBe('SAFETY_BLOCKED');
    expect(readdirSync(target).sort()).toEqual(['a.png', 'b.png']);
  });

  it('refuses path traversal', async () => {
    const zip = zipOf({
      'images/../../evil.png': png,
      'manifest.json': manifest([{ custom_id: 'e', filename: 'images/../../evil.png' }]),
    });
    await expectRefused(zip, /climbs out/);
    expect(existsSync(join(tmpdir(), 'evil.png'))).toBe(false);
  });

  it('refuses absolute paths and backslashes', async () => {
    await expectRefused(zipOf({ '/etc/evil.png': png, 'manifest.json': manifest([]) }), /absolute path/);
    await expectRefused(zipOf({ 'C:/evil.png': png, 'manifest.json': manifest([]) }), /absolute path/);
    await expectRefused(
      zipOf({ 'images\\..\\evil.png': png, 'manifest.json': manifest([]) }),
      /forbidden character/,
    );
  });

  it('refuses symbolic links', async () => {
    const zip = zipOf({
      // An image's bytes, so only the link's mode (which only the central directory has) refuses it.
      'images/link.png': [png, { os: 3, attrs: (0o120777 << 16) >>> 0 }],
      'manifest.json': manifest([{ custom_id: 'link', filename: 'images/link.png' }]),
    });
    await expectRefused(zip, /symbolic link/);
  });

  it('refuses a zip bomb, and a header that lies about the size', async () => {
    const zeros = new Uint8Array(40 * 1024 * 1024);
    const bomb = Buffer.from(
      zipSync({
        'images/bomb.png': [zeros, { level: 9 }],
        'manifest.json': manifest([{ custom_id: 'bomb', filename: 'images/bomb.png' }]),
      }),
    );
    await expectRefused(bomb, /zip bomb/);

    // A deflated entry announcing 100 bytes that inflates to 2 MiB.
    const liar = zipOf({
      'images/small.png': png,
      'manifest.json': manifest([{ custom_id: 'small', filename: 'images/small.png' }]),
    });
    const payload = deflateRawSync(Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]));
    const forged = forgeEntry(liar, 'images/small.png', payload, png.length);
    await expectRefused(forged, /inflate|announced|CRC/);
  });

  it('refuses a manifest that lies', async () => {
    const files = [
      { custom_id: 'a', filename: 'images/a.png' },
      { custom_id: 'b', filename: 'images/b.png' },
    ];
    await expectRefused(zipOf({ 'images/a.png': png, 'manifest.json': manifest(files) }), /lacks/);
    await expectRefused(
      zipOf({
        'images/a.png': png,
        'images/b.png': png,
        'manifest.json': manifest(files, { success_count: 3 }),
      }),
      /says 3 succeeded/,
    );
    await expectRefused(
      zipOf({
        'images/a.png': png,
        'images/b.png': png,
        'images/x.png': png,
        'manifest.json': manifest(files),
      }),
      /not in the manifest/,
    );
    await expectRefused(
      zipOf({ 'images/a.png': png, 'images/b.png': png, 'manifest.json': manifest(files) }),
      /batch has 5/,
      5,
    );
    await expectRefused(
      zipOf({ 'images/a.png': strToU8('not an image'), 'manifest.json': manifest([files[0]!]) }),
      /not a PNG/,
    );
    await expectRefused(zipOf({ 'images/a.png': png }), /manifest.json is missing/);
    await expectRefused(
      zipOf({ 'images/a.png': png, 'manifest.json': strToU8('{"files": 3') }),
      /manifest.json is not valid/,
    );
  });

  it('refuses truncated data and a corrupted byte', async () => {
    const good = zipOf({
      'images/a.png': png,
      'manifest.json': manifest([{ custom_id: 'a', filename: 'images/a.png' }]),
    });
    await expectRefused(good.subarray(0, Math.floor(good.length * 0.7)), /cut short/);
    const corrupt = Buffer.from(good);
    const at = 30 + 'images/a.png'.length + 40;
    corrupt[at] = corrupt[at]! ^ 0xff;
    // The image that failed its check was being written: it is gone, not left half-checked.
    const refusedInto = await expectRefused(corrupt, /CRC-32/);
    expect(readdirSync(refusedInto)).toEqual([]);
    await expectRefused(Buffer.from('{"error":{"code":"BATCH_IMAGE_DOWNLOAD_FAILED"}}'), /cannot be read/);
    // In words, never the ZIP reader's own text.
    const { run } = await ingest(good.subarray(0, Math.floor(good.length * 0.7)));
    const refusal = await run.catch((err: Error) => err);
    expect((refusal as Error).message).toMatch(/cut short/);
    expect((refusal as Error).message).not.toMatch(/central directory|signature|yauzl|EOCD/i);
  });

  it('refuses too many entries and unexpected files', async () => {
    const many: Zippable = { 'manifest.json': manifest([]) };
    for (let i = 0; i < 1001; i++) many[`images/${i}.png`] = png;
    await expectRefused(zipOf(many), /more than 1000 entries/);
    await expectRefused(
      zipOf({ 'run.sh': strToU8('rm -rf /'), 'manifest.json': manifest([]) }),
      /not part of a batch archive/,
    );
    await expectRefused(
      zipOf({ 'images/sub/a.png': png, 'manifest.json': manifest([]) }),
      /not part of a batch archive/,
    );
  });
});

describe('batch ZIP extraction on disk', () => {
  const original = fs.fsync;
  afterEach(() => {
    fs.fsync = original;
  });

  it('flushes every image before it answers, and writes each byte for byte from any entry size', async () => {
    // Sizes around the chunk the reader uses, so an image spans one, several, or a partial chunk.
    const sizes = [png.length, 256 * 1024, 256 * 1024 + 1, 3 * 1024 * 1024 - 7];
    const images = sizes.map((size) => {
      // Noise, as photographs are to deflate: no entry looks like a zip bomb.
      const data = randomBytes(size);
      png.copy(data, 0, 0, 16);
      return data;
    });
    const files = images.map((_, i) => ({ custom_id: `i${i}`, filename: `images/i${i}.png` }));
    const entries: Zippable = { 'manifest.json': manifest(files) };
    images.forEach((data, i) => (entries[`images/i${i}.png`] = [data, { level: i % 2 ? 6 : 0 }]));
    // By inode: an image is written under a temporary name and renamed once the manifest names it.
    const flushed: number[] = [];
    fs.fsync = ((fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => {
      flushed.push(fs.fstatSync(fd).ino);
      return original(fd, callback);
    }) as typeof fs.fsync;

    const { run, target } = await ingest(Buffer.from(zipSync(entries)), files.length);
    const result = await run;
    fs.fsync = original;

    expect(result.images.map((i) => i.bytes)).toEqual(sizes);
    images.forEach((data, i) => expect(readFileSync(join(target, `i${i}.png`)).equals(data)).toBe(true));
    // Each image reached the disk before the extraction said it was done.
    expect(flushed.sort()).toEqual(files.map((_, i) => fs.statSync(join(target, `i${i}.png`)).ino).sort());
    expect(readdirSync(target).sort()).toEqual(files.map((_, i) => `i${i}.png`).sort());
  });
});

/** Replaces one stored entry's data with deflated bytes while keeping its announced size. */
function forgeEntry(zip: Buffer, name: string, deflated: Buffer, announced: number): Buffer {
  const nameBuf = Buffer.from(name);
  const local = zip.indexOf(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04])]));
  const localNameAt = zip.indexOf(nameBuf, local);
  const headerStart = localNameAt - 30;
  const oldSize = zip.readUInt32LE(headerStart + 18);
  const extraLen = zip.readUInt16LE(headerStart + 28);
  const dataStart = localNameAt + nameBuf.length + extraLen;
  const before = Buffer.from(zip.subarray(0, dataStart));
  before.writeUInt16LE(8, headerStart + 8);
  before.writeUInt32LE(deflated.length, headerStart + 18);
  before.writeUInt32LE(announced, headerStart + 22);
  const rest = Buffer.from(zip.subarray(dataStart + oldSize));
  const delta = deflated.length - oldSize;
  // Fix the central directory entry and the end record's offset.
  const central = rest.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  for (
    let at = central;
    at >= 0 && at < rest.length;
    at = rest.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)
  ) {
    const n = rest.readUInt16LE(at + 28);
    const entryName = rest.subarray(at + 46, at + 46 + n).toString();
    if (entryName === name) {
      rest.writeUInt16LE(8, at + 10);
      rest.writeUInt32LE(deflated.length, at + 20);
      rest.writeUInt32LE(announced, at + 24);
    } else if (rest.readUInt32LE(at + 42) > headerStart) {
      rest.writeUInt32LE(rest.readUInt32LE(at + 42) + delta, at + 42);
    }
  }
  const end = rest.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  rest.writeUInt32LE(rest.readUInt32LE(end + 16) + delta, end + 16);
  return Buffer.concat([before, deflated, rest]);
}
