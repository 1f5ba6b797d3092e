import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { VerifiedImage } from '../services/zip/zip-stream-ingest';
import { ingest, manifestOf, pieces, png, trickyImage, zipOf, type Entry } from './helpers/zip-by-hand';

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
      [
        // Its data starts a byte late, so no descriptor counts its own offset: it is inflated as it
        // streams, from the middle of its deflate stream, which fails. That failure once left the
        // ingest waiting forever on a write the inflate never finished.
        'a deflated entry with a descriptor whose header misplaces its data',
        (() => {
          const zip = zipOf([a, { ...b, deflate: true, descriptor: 'signed32' }, manifestOf(['a', 'b'])]);
          const header = zip.indexOf(Buffer.from('PK\x03\x04'), 1);
          zip.writeUInt16LE(1, header + 28);
          return zip;
        })(),
        /images\/b.png/,
      ],
      [
        // Room for its compressed bytes is made before they come: a header may not ask for 2 GB.
        'a deflated entry whose header claims more compressed bytes than its size can take',
        (() => {
          const zip = zipOf([a, { ...b, deflate: true }, manifestOf(['a', 'b'])]);
          const header = zip.indexOf(Buffer.from('PK\x03\x04'), 1);
          zip.writeUInt32LE(0x7ffffff0, header + 18);
          return zip;
        })(),
        /images\/b.png is 2147483632 bytes compressed/,
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

  it('resumes a stream cut at any byte of a data descriptor, of every form', async () => {
    // Cut short of a 64-bit descriptor, the bytes held can read as a 32-bit one that does not
    // match: a cut, to be resumed, not a lie to refuse.
    const data = Buffer.concat([png.subarray(0, 16), randomBytes(40_000)]);
    for (const descriptor of ['signed32', 'unsigned32', 'signed64', 'unsigned64'] as const)
      for (const deflate of [false, true]) {
        const first = { name: 'images/first.png', data, deflate, descriptor };
        const zip = zipOf([first, { name: 'images/second.png', data: png }, manifestOf(['first', 'second'])]);
        const start = 30 + first.name.length + (deflate ? deflateRawSync(data) : data).length;
        const length = (descriptor.startsWith('signed') ? 4 : 0) + (descriptor.endsWith('64') ? 20 : 12);
        for (let cut = start - 2; cut <= start + length + 4; cut++) {
          // The first request is cut; the next (from the first entry's start, 0) is answered whole.
          let requests = 0;
          const { result, dir } = await ingest(zip, (from) =>
            requests++ === 0 ? pieces(zip, 0, cut) : pieces(zip, from),
          );
          await result;
          const label = `${descriptor} ${deflate ? 'deflated' : 'stored'}, cut at ${cut - start}`;
          expect(readFileSync(join(dir, 'first.png')).equals(data), label).toBe(true);
        }
      }
  });

  it('says a stream cut inside its list of files was cut short, wherever it stops', async () => {
    const zip = zipOf([{ name: 'images/a.png', data: png }, manifestOf(['a'])]);
    const directory = zip.indexOf(Buffer.from('PK\x01\x02'));
    // Each byte of the directory and its end record, some in the middle of a record's signature.
    for (let cut = directory + 1; cut < zip.length; cut++) {
      const { result } = await ingest(zip, (from) => (from === 0 ? pieces(zip, 0, cut) : undefined));
      await expect(result, `cut at ${cut}`).rejects.toMatchObject({
        code: 'STUDIO_ZIP_REJECTED',
        message: expect.stringMatching(/cut short/),
      });
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
