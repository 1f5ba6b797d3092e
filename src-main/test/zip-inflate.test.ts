import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { crc32 as zlibCrc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../services/zip/crc32';
import { CheckFailed, Lane, inflatePieces } from '../services/zip/inflate-pool';
import { ByteSource } from '../services/zip/zip-byte-source';
import { extractBatchZip, extractZip } from './helpers/zip-on-disk';
import { call, startServices, waitUntil } from './helpers/studio-fixture';
import { promptsDraft } from './helpers/prompts-draft';

/** Compression methods of the archive's images, from its central directory. */
function imageMethods(zip: Buffer): Promise<number[]> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const methods: number[] = [];
      file.on('entry', (e: yauzl.Entry) => {
        if (e.fileName.startsWith('images/')) methods.push(e.compressionMethod);
        file.readEntry();
      });
      file.on('end', () => resolve(methods));
      file.readEntry();
    }),
  );
}

describe('deflated batch ZIPs', () => {
  it('download from a gateway that deflates its ZIPs to byte-identical images', async () => {
    const services = await startServices({ sandbox: { config: { deflateZips: true } } });
    const prompts = ['a red mug', 'a blue mug', 'a green mug'];
    const { batch } = await call(services, 'batches.submit', {
      draft: promptsDraft('d-deflate', 'Deflated', prompts, 'row-'),
    });
    const done = await waitUntil(
      () => call(services, 'batches.get', { id: batch.id }),
      (b) => b.download.state === 'done' || b.download.state === 'failed',
      60_000,
    );
    expect(done.download.state).toBe('done');

    const base = services.sandbox.url;
    const auth = { authorization: 'Bearer sk-sandbox-alice' };
    const zip = Buffer.from(
      await (await fetch(`${base}/v1/images/batches/${batch.id}/download`, { headers: auth })).arrayBuffer(),
    );
    // The gateway really deflated them: the studio had to inflate every image.
    expect(await imageMethods(zip)).toEqual([8, 8, 8]);

    const folder = join(services.settings.get().libraryDir, done.download.folder);
    const record = JSON.parse(readFileSync(join(folder, 'batch.json'), 'utf8'));
    expect(record.download.source).toBe('zip');
    expect(readdirSync(join(folder, 'images'))).toHaveLength(3);
    for (const image of record.images as { customId: string; file: string }[]) {
      const res = await fetch(`${base}/v1/images/batches/${batch.id}/items/${image.customId}/content`, {
        headers: auth,
      });
      const original = Buffer.from(await res.arrayBuffer());
      expect(readFileSync(join(folder, image.file)).equals(original), image.file).toBe(true);
    }
  }, 90_000);

  it('keeps the event loop turning while a large deflated entry inflates', async () => {
    // 48 MB of PNG-headed noise over 16 symbols: deflates about 2:1 (no zip bomb) and takes
    // real work to inflate.
    const size = 48 * 1024 * 1024;
    const image = randomBytes(size);
    for (let i = 0; i < size; i++) image[i] = 0x40 + (image[i]! & 0x0f);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(image);
    const zip = zipSync(
      {
        'images/big.png': [image, { level: 1 }],
        'manifest.json': strToU8(
          JSON.stringify({
            batch_id: 'b',
            success_count: 1,
            files: [{ custom_id: 'big', filename: 'images/big.png', mime_type: 'image/png', image_index: 0 }],
          }),
        ),
      },
      { level: 6 },
    );
    const dir = mkdtempSync(join(tmpdir(), 'zip-inflate-'));
    writeFileSync(join(dir, 'in.zip'), zip);
    mkdirSync(join(dir, 'out'));

    // How long the main thread would stop if it inflated this entry itself.
    const raw = readEntryRaw(Buffer.from(zip), 'images/big.png');
    const started = performance.now();
    inflateRawSync(raw);
    const syncStall = performance.now() - started;

    const delay = monitorEventLoopDelay({ resolution: 5 });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    delay.enable();
    const result = await extractBatchZip({
      zipFile: join(dir, 'in.zip'),
      targetDir: join(dir, 'out'),
      nameFor: (id, _i, ext) => `${id}.${ext}`,
    });
    delay.disable();
    clearInterval(ticker);

    expect(result.images).toHaveLength(1);
    expect(readFileSync(join(dir, 'out', 'big.png')).equals(image)).toBe(true);
    expect(ticks).toBeGreaterThan(0);
    // The longest stall is well under the synchronous inflate's.
    expect(delay.max / 1e6).toBeLessThan(syncStall / 2);
  }, 120_000);
});

/** The bytes as a network hands them over, chunk by chunk. */
async function* chunksOf(chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield chunk;
}

describe('inflating into buffers kept between entries', () => {
  it("inflates into the lane's own buffer, and refuses more output than announced", async () => {
    const lane = new Lane();
    const image = randomBytes(1024 * 1024);
    const out = lane.output(image.length + 1);
    const pieces: Buffer[] = [];
    for await (const piece of inflatePieces(deflateRawSync(image), image.length, 'a.png', lane)) {
      // No buffer of its own: the next entries allocate nothing.
      expect(piece.buffer).toBe(out.buffer);
      pieces.push(Buffer.from(piece));
    }
    expect(Buffer.concat(pieces).equals(image)).toBe(true);
    expect(lane.output(1000)).toBe(out);

    const drain = async (pieces: AsyncIterable<Buffer>) => {
      for await (const piece of pieces) expect(piece.length).toBeGreaterThan(0);
    };
    const bomb = deflateRawSync(Buffer.alloc(2 * 1024 * 1024));
    await expect(drain(inflatePieces(bomb, 100, 'b.png', lane))).rejects.toThrow(/announced/);
    // Bytes after the deflate stream, within the size the header gave: not the entry it claims.
    const padded = Buffer.concat([deflateRawSync(image), randomBytes(300 * 1024)]);
    await expect(drain(inflatePieces(padded, image.length, 'c.png', lane))).rejects.toThrow(
      /c\.png ends after \d+ of its \d+ compressed bytes/,
    );
  });

  it("copies an image's compressed bytes into the lane from chunks of any size, and inflates them in one job", async () => {
    const image = randomBytes(1024 * 1024 + 5);
    const compressed = deflateRawSync(image);
    // A gateway's chunks: some of a byte, some of 16 KB (TLS records), some of 140 or 300 KB.
    const chunks: Buffer[] = [];
    for (let at = 0, k = 0; at < compressed.length; k++) {
      const n = [1, 16_384, 300_000, 7, 140_000][k % 5]!;
      chunks.push(compressed.subarray(at, at + n));
      at += n;
    }
    const lane = new Lane();
    const into = lane.input(compressed.length);
    const src = new ByteSource(chunksOf([...chunks, Buffer.from('next')]));
    const got = await src.readInto(compressed.length, into);
    expect(got.buffer).toBe(into.buffer);
    expect(got.equals(compressed)).toBe(true);
    // What follows is left for the next reader.
    expect((await src.read(4)).toString()).toBe('next');
    // One buffer in, one job on the pool, one piece out: each job is a hop to the pool and back.
    const pieces: Buffer[] = [];
    for await (const piece of inflatePieces(got, image.length, 'a.png', lane, zlibCrc32(image)))
      pieces.push(Buffer.from(piece));
    expect(pieces).toHaveLength(1);
    expect(pieces[0]!.equals(image)).toBe(true);

    // A gateway sending a byte per chunked frame.
    const bytewise = compressed.subarray(0, 600_000);
    const fine = new ByteSource(chunksOf([...bytewise].map((b) => Buffer.from([b]))));
    expect((await fine.readInto(bytewise.length, lane.input(bytewise.length))).equals(bytewise)).toBe(true);
    await expect(fine.readInto(1, lane.input(1))).rejects.toThrow(/ended at byte 600000/);
  });

  it('checks each image against the CRC-32 its archive recorded, and refuses one that differs', async () => {
    const image = randomBytes(1024 * 1024 + 17);
    const recorded = zlibCrc32(image);
    const lane = new Lane();
    const pieces: Buffer[] = [];
    for await (const piece of inflatePieces(deflateRawSync(image), image.length, 'a.png', lane, recorded))
      pieces.push(Buffer.from(piece));
    expect(Buffer.concat(pieces).equals(image)).toBe(true);
    // One bit off in the record: every piece is handed on, then the image is refused.
    const wrong = inflatePieces(deflateRawSync(image), image.length, 'b.png', lane, recorded ^ 1);
    let handed = 0;
    await expect(
      (async () => {
        for await (const piece of wrong) handed += piece.length;
      })(),
    ).rejects.toBeInstanceOf(CheckFailed);
    expect(handed).toBe(image.length);
  });

  it("computes zlib's CRC-32, over any split of the bytes", () => {
    // The check value of CRC-32/ISO-HDLC, and unsigned above 2^31.
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0), 0xdeadbeef)).toBe(0xdeadbeef);
    const data = randomBytes(3 * 1024 * 1024 + 5);
    const whole = zlibCrc32(data);
    expect(crc32(data)).toBe(whole);
    for (const cuts of [[1], [7, 4096, 65_537], [1024 * 1024, 2 * 1024 * 1024 + 3]]) {
      let running = 0;
      let at = 0;
      for (const cut of [...cuts, data.length]) {
        running = crc32(data.subarray(at, cut), running);
        at = cut;
      }
      expect(running).toBe(whole);
    }
  });

  it('extracts many deflated images of mixed sizes through the reused buffers, each byte for byte', async () => {
    // Large, then small, then larger: a buffer reused too soon, or grown wrongly, shows as a wrong byte.
    const sizes = [3_000_000, 70_000, 5_000_003, 1_000, 2_500_000, 4_000_000, 65_537, 3_300_000, 12];
    const images = sizes.map((size) => {
      const data = randomBytes(Math.max(size, 16));
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(data);
      return data;
    });
    const files = images.map((_, i) => ({
      custom_id: `i${i}`,
      filename: `images/i${i}.png`,
      mime_type: 'image/png',
      image_index: 0,
    }));
    const entries: Record<string, [Uint8Array, { level: 1 | 6 }]> = {};
    images.forEach((data, i) => (entries[`images/i${i}.png`] = [data, { level: i % 2 ? 1 : 6 }]));
    // zipSync writes each entry's sizes in its local header: the path inflated beside the stream.
    const zip = zipSync({
      ...entries,
      'manifest.json': strToU8(JSON.stringify({ batch_id: 'b', success_count: files.length, files })),
    });
    const { result, out } = await extractZip(zip);
    expect(await imageMethods(Buffer.from(zip))).toEqual(sizes.map(() => 8));
    expect(result.images).toHaveLength(sizes.length);
    images.forEach((data, i) =>
      expect(readFileSync(join(out, `i${i}.png`)).equals(data), `i${i}`).toBe(true),
    );
  }, 60_000);
});

/** An entry's raw (still deflated) bytes, from its local header. */
function readEntryRaw(zip: Buffer, name: string): Buffer {
  for (let at = 0; at < zip.length - 30;) {
    if (zip.readUInt32LE(at) !== 0x04034b50) break;
    const compressed = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extra = zip.readUInt16LE(at + 28);
    const start = at + 30 + nameLength + extra;
    if (zip.toString('utf8', at + 30, at + 30 + nameLength) === name)
      return zip.subarray(start, start + compressed);
    at = start + compressed;
  }
  throw new Error(`${name} is not in the archive`);
}
