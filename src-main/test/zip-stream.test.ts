import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ingestBatchZip, type VerifiedImage } from '../services/library/zip-stream-ingest';

// A ZIP written by hand, so every form a streaming reader meets can be made: data descriptors with
// and without their signature, 32 and 64 bits wide, stored and deflated, and archives that lie.

const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a8' } })
  .png()
  .toBuffer();

/** An image whose bytes hold things that look like ZIP records: a stored scan must not stop at them. */
function trickyImage(size: number): Buffer {
  const data = randomBytes(size);
  png.copy(data, 0, 0, 16);
  for (const at of [size >> 2, size >> 1, (size * 3) >> 2]) {
    Buffer.from('PK\x07\x08').copy(data, at);
    Buffer.from('PK\x03\x04').copy(data, at + 40);
    Buffer.from('PK\x01\x02').copy(data, at + 80);
  }
  return data;
}

interface Entry {
  name: string;
  data: Buffer;
  deflate?: boolean;
  /** Bit 3: the CRC and sizes come after the data. */
  descriptor?: 'signed32' | 'unsigned32' | 'signed64' | 'unsigned64';
  /** Lies, each on one side only. */
  localName?: string;
  descriptorCrc?: number;
  descriptorCompressed?: number;
  descriptorSize?: number;
  centralCrc?: number;
  unlisted?: boolean;
}

function zipOf(entries: Entry[], options: { phantom?: boolean; trailing?: Buffer } = {}): Buffer {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const push = (b: Buffer) => {
    out.push(b);
    offset += b.length;
  };
  for (const e of entries) {
    const body = e.deflate ? deflateRawSync(e.data) : e.data;
    const crc = crc32(e.data) >>> 0;
    const name = Buffer.from(e.localName ?? e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.descriptor ? 0x8 : 0, 6);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    if (!e.descriptor) {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(e.data.length, 22);
    }
    local.writeUInt16LE(name.length, 26);
    const at = offset;
    push(Buffer.concat([local, name, body]));
    if (e.descriptor) {
      const wide = e.descriptor.endsWith('64');
      const d = Buffer.alloc(wide ? 20 : 12);
      d.writeUInt32LE((e.descriptorCrc ?? crc) >>> 0, 0);
      const compressed = e.descriptorCompressed ?? body.length;
      const size = e.descriptorSize ?? e.data.length;
      if (wide) {
        d.writeBigUInt64LE(BigInt(compressed), 4);
        d.writeBigUInt64LE(BigInt(size), 12);
      } else {
        d.writeUInt32LE(compressed, 4);
        d.writeUInt32LE(size, 8);
      }
      push(e.descriptor.startsWith('signed') ? Buffer.concat([Buffer.from('PK\x07\x08'), d]) : d);
    }
    if (e.unlisted) continue;
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(e.descriptor ? 0x8 : 0, 8);
    c.writeUInt16LE(e.deflate ? 8 : 0, 10);
    c.writeUInt32LE((e.centralCrc ?? crc) >>> 0, 16);
    c.writeUInt32LE(body.length, 20);
    c.writeUInt32LE(e.data.length, 24);
    c.writeUInt16LE(Buffer.byteLength(e.name), 28);
    c.writeUInt32LE(at, 42);
    central.push(Buffer.concat([c, Buffer.from(e.name)]));
  }
  if (options.phantom) {
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE('images/ghost.png'.length, 28);
    c.writeUInt32LE(offset + 12345, 42);
    central.push(Buffer.concat([c, Buffer.from('images/ghost.png')]));
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length, 8);
  end.writeUInt16LE(central.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, directory, end, options.trailing ?? Buffer.alloc(0)]);
}

function manifestOf(names: string[]): Entry {
  const files = names.map((n) => ({
    custom_id: n,
    filename: `images/${n}.png`,
    mime_type: 'image/png',
    image_index: 0,
  }));
  return {
    name: 'manifest.json',
    data: Buffer.from(JSON.stringify({ batch_id: 'b', success_count: names.length, files })),
  };
}

/** The archive in pieces of random sizes (a network's), some of one byte. */
async function* pieces(data: Buffer, from = 0, stopAt = data.length): AsyncGenerator<Buffer> {
  for (let at = from; at < stopAt;) {
    const n = Math.random() < 0.2 ? 1 : 1 + Math.floor(Math.random() * 70_000);
    yield data.subarray(at, Math.min(stopAt, at + n));
    at += n;
  }
}

async function ingest(
  zip: Buffer,
  open?: (from: number) => AsyncIterable<Buffer> | undefined,
  verified?: VerifiedImage[],
) {
  const dir = mkdtempSync(join(tmpdir(), 'zip-stream-'));
  mkdirSync(join(dir, 'images'));
  const result = ingestBatchZip({
    open: async (from) => (open ? open(from) : pieces(zip, from)),
    targetDir: join(dir, 'images'),
    nameFor: (id, _i, ext) => `${id}.${ext}`,
    verified,
  });
  return { result, dir: join(dir, 'images') };
}

describe('a batch ZIP read as it streams', () => {
  it('reads every descriptor form, stored and deflated, byte for byte, in pieces of any size', async () => {
    const forms = ['signed32', 'unsigned32', 'signed64', 'unsigned64'] as const;
    const entries: Entry[] = [];
    const images = new Map<string, Buffer>();
    for (const [i, form] of forms.entries())
      for (const deflate of [false, true]) {
        const id = `${form}-${deflate ? 'deflated' : 'stored'}`;
        const data = trickyImage(50_000 + i * 70_001);
        images.set(id, data);
        entries.push({ name: `images/${id}.png`, data, deflate, descriptor: form });
      }
    entries.push({ name: 'images/plain.png', data: png });
    images.set('plain', png);
    entries.push(manifestOf([...images.keys()]));
    const { result, dir } = await ingest(zipOf(entries));
    const done = await result;
    expect(done.images).toHaveLength(images.size);
    for (const [id, data] of images) expect(readFileSync(join(dir, `${id}.png`)).equals(data)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([...images.keys()].map((id) => `${id}.png`).sort());
  });

  it('ends a stored entry at a descriptor that lies wholly within the bytes held back from a chunk', async () => {
    // A network's chunks end anywhere: here one ends 4 to 12 bytes past a signed descriptor, so the
    // descriptor is among the 28 bytes held back, and the next chunk is a large one.
    const ids = ['first', 'second'];
    const data = ids.map(() => trickyImage(90_000));
    const zip = zipOf([
      ...ids.map((id, i) => ({ name: `images/${id}.png`, data: data[i]!, descriptor: 'signed32' as const })),
      manifestOf(ids),
    ]);
    const descriptor = zip.indexOf(Buffer.from('PK\x07\x08'), 30 + 'images/first.png'.length + 90_000 - 1);
    for (const past of [4, 8, 12]) {
      const cut = descriptor + 16 + past;
      const { result, dir } = await ingest(zip, (from) =>
        from === 0
          ? (async function* () {
              yield zip.subarray(0, cut);
              yield zip.subarray(cut);
            })()
          : undefined,
      );
      await result;
      ids.forEach((id, i) => expect(readFileSync(join(dir, `${id}.png`)).equals(data[i]!)).toBe(true));
    }
  });

  it('refuses what only a streaming reader meets, and leaves nothing behind', async () => {
    const a = { name: 'images/a.png', data: png };
    const b = { name: 'images/b.png', data: trickyImage(30_000) };
    const cases: [string, Buffer, RegExp][] = [
      [
        'a local header named otherwise',
        zipOf([{ ...a, localName: 'images/x.png' }, b, manifestOf(['a', 'b'])]),
        /named images\/x.png/,
      ],
      [
        'a directory CRC that differs',
        zipOf([{ ...a, centralCrc: 1 }, b, manifestOf(['a', 'b'])]),
        /disagrees with the list/,
      ],
      [
        'a lying descriptor',
        zipOf([a, { ...b, deflate: true, descriptor: 'signed32', descriptorCrc: 7 }, manifestOf(['a', 'b'])]),
        /descriptor of images\/b.png/,
      ],
      [
        'a descriptor lying about the size',
        zipOf([
          a,
          { ...b, deflate: true, descriptor: 'unsigned64', descriptorSize: 29_000 },
          manifestOf(['a', 'b']),
        ]),
        /descriptor of images\/b.png|unpacks past/,
      ],
      [
        // No place then looks like its end: it is read as it streams, and its inflate stream ends it.
        'a descriptor lying about the compressed size',
        zipOf([
          a,
          { ...b, deflate: true, descriptor: 'signed32', descriptorCompressed: 5 },
          manifestOf(['a', 'b']),
        ]),
        /descriptor of images\/b.png/,
      ],
      ['the same name twice', zipOf([a, a, manifestOf(['a'])]), /appears twice/],
      [
        'bytes after the directory',
        zipOf([a, manifestOf(['a'])], { trailing: Buffer.from('hidden') }),
        /bytes after its list/,
      ],
      [
        'an entry the directory does not list',
        zipOf([a, { ...b, unlisted: true }, manifestOf(['a'])]),
        /not in its list of files/,
      ],
      ['a listed entry the stream never had', zipOf([a, manifestOf(['a'])], { phantom: true }), /never had/],
    ];
    for (const [what, zip, reason] of cases) {
      const { result, dir } = await ingest(zip);
      await expect(result, what).rejects.toMatchObject({
        code: 'STUDIO_ZIP_REJECTED',
        message: expect.stringMatching(reason),
      });
      expect(readdirSync(dir), what).toEqual([]);
    }
    // A stored entry whose descriptor lies has no end: the stream runs out, and it is cut short.
    const { result } = await ingest(
      zipOf([a, { ...b, descriptor: 'signed32', descriptorCrc: 7 }, manifestOf(['a', 'b'])]),
    );
    await expect(result).rejects.toMatchObject({ message: expect.stringMatching(/cut short/) });
  });

  it('resumes a cut stream from its last whole entry, at 30, 60 and 99 %, to byte-identical images', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `img${i}`);
    const data = ids.map((_, i) => trickyImage(40_000 + i * 9_000));
    const forms = ['signed32', 'unsigned32', 'signed64', 'unsigned64'] as const;
    // Stored and deflated in turn, every descriptor form: a cut may fall in an entry being gathered
    // to its descriptor, to be inflated beside the next ones.
    const zip = zipOf([
      ...ids.map((id, i) => ({
        name: `images/${id}.png`,
        data: data[i]!,
        descriptor: forms[Math.floor(i / 2) % 4]!,
        deflate: i % 2 === 1,
      })),
      manifestOf(ids),
    ]);
    for (const share of [0.3, 0.6, 0.99]) {
      const asked: number[] = [];
      const { result, dir } = await ingest(zip, (from) => {
        asked.push(from);
        return from === 0 ? pieces(zip, 0, Math.floor(zip.length * share)) : pieces(zip, from);
      });
      await result;
      expect(asked[0]).toBe(0);
      // Resumed once, at the start of an entry (a local header or the directory), not at byte 0.
      expect(asked).toHaveLength(2);
      expect(zip.readUInt32LE(asked[1]!) === 0x04034b50 || zip.readUInt32LE(asked[1]!) === 0x02014b50).toBe(
        true,
      );
      ids.forEach((id, i) => expect(readFileSync(join(dir, `${id}.png`)).equals(data[i]!)).toBe(true));
    }
  });

  it('keeps the images it verified when a cut stream cannot resume, and no partial one', async () => {
    const ids = ['one', 'two', 'three'];
    const data = ids.map(() => trickyImage(100_000));
    const zip = zipOf([
      ...ids.map((id, i) => ({ name: `images/${id}.png`, data: data[i]! })),
      manifestOf(ids),
    ]);
    const verified: VerifiedImage[] = [];
    const { result, dir } = await ingest(
      zip,
      (from) => (from === 0 ? pieces(zip, 0, 150_000) : undefined),
      verified,
    );
    await expect(result).rejects.toMatchObject({
      code: 'STUDIO_ZIP_REJECTED',
      message: expect.stringMatching(/cut short/),
    });
    expect(verified.map((v) => v.entryName)).toEqual(['images/one.png']);
    expect(readFileSync(verified[0]!.path).equals(data[0]!)).toBe(true);
    expect(readdirSync(dir)).toHaveLength(1);
  });
});
