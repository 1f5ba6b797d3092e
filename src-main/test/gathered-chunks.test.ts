import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GatheredChunks } from '../services/zip/gathered-chunks';
import { Lane } from '../services/zip/inflate-pool';
import { JOIN_BELOW, STEP } from '../services/zip/inflate-steps';
import type { Borrowed } from '../services/zip/zip-byte-source';

/** A chunk as ByteSource.borrowChunk lends it, counting when it is given back. */
function lent(view: Buffer, back: Set<Buffer>): Borrowed {
  return { views: [view], bytes: view.length, release: () => void back.add(view) };
}

/** `data` as chunks cut at `cuts`, as a network hands them over. */
function gathered(data: Buffer, cuts: number[], room?: (n: number) => Buffer): GatheredChunks {
  const chunks = new GatheredChunks(room);
  let at = 0;
  for (const cut of [...cuts, data.length]) {
    chunks.add(lent(data.subarray(at, cut), new Set()));
    at = cut;
  }
  return chunks;
}

describe('a deflated entry gathered as the chunks it came in', () => {
  // Signatures at the start, in the middle, and two bytes from the end; "P" alone elsewhere.
  const data = Buffer.from('PK\x07\x08abcdP-xyzPK\x03\x04PPK\x01\x02tailPK', 'latin1');
  const everyPK = (from: number) => {
    const found: number[] = [];
    for (let i = data.indexOf('PK', from); i >= 0; i = data.indexOf('PK', i + 1)) found.push(i);
    return found;
  };

  it('finds every "PK", reads every word and copies every range as one buffer would, wherever the chunks end', () => {
    // One cut at every place, so each signature is split between two chunks somewhere; and
    // chunks of one byte. Kept as they came, and joined in a lane's buffer as short chunks are.
    const cutsToTry = [
      ...Array.from({ length: data.length - 1 }, (_, i) => [i + 1]),
      Array.from({ length: data.length - 1 }, (_, i) => i + 1),
    ];
    for (const joined of [false, true])
      for (const cuts of cutsToTry) {
        const lane = new Lane();
        const chunks = gathered(data, cuts, joined ? (n) => lane.input(n) : undefined);
        const what = `cuts ${cuts.join(',')}${joined ? ', joined' : ''}`;
        expect(chunks.length).toBe(data.length);
        for (let from = 0; from < data.length; from++) {
          const found: number[] = [];
          for (let i = chunks.nextPK(from); i >= 0; i = chunks.nextPK(i + 1)) found.push(i);
          expect(found, `${what}, from ${from}`).toEqual(everyPK(from));
        }
        for (let at = 0; at + 4 <= data.length; at++)
          expect(chunks.u32(at), what).toBe(data.readUInt32LE(at));
        for (let from = 0; from <= data.length; from++)
          for (let to = from; to <= data.length; to++)
            expect(chunks.copy(from, to).equals(data.subarray(from, to)), what).toBe(true);
        for (let end = 0; end <= data.length; end++)
          expect(Buffer.concat(chunks.viewsUpTo(end)).equals(data.subarray(0, end)), what).toBe(true);
      }
  });

  it('keeps long chunks where they lie, joins short ones in the lane and gives those back at once', () => {
    const entry = randomBytes(1_500_000);
    // A gateway's chunks: some of a byte, some of 16 KB (TLS records), some of 140 or 300 KB.
    const sizes = [1, 16_384, 300_000, 7, 140_000, 16_384, 16_384];
    const lane = new Lane();
    const chunks = new GatheredChunks((n) => lane.input(n));
    const back = new Set<Buffer>();
    const long: Buffer[] = [];
    for (let at = 0, k = 0; at < entry.length; k++) {
      const view = entry.subarray(at, at + sizes[k % sizes.length]!);
      chunks.add(lent(view, back));
      at += view.length;
      if (view.length >= JOIN_BELOW) long.push(view);
      // A short chunk is copied: its memory may be read into at once. A long one is lent on.
      else expect(back.has(view)).toBe(true);
    }
    expect(long.some((v) => back.has(v))).toBe(false);
    const views = chunks.viewsUpTo(entry.length);
    expect(Buffer.concat(views).equals(entry)).toBe(true);
    // Long chunks are views of the memory they came in; short runs are joined, a step at most.
    expect(views.filter((v) => v.buffer === entry.buffer)).toHaveLength(long.length);
    const joined = views.filter((v) => v.buffer !== entry.buffer);
    expect(joined.every((v) => v.length < STEP + JOIN_BELOW)).toBe(true);
    expect(joined.length).toBeLessThanOrEqual(long.length + 2);
    chunks.release();
    expect(long.every((v) => back.has(v))).toBe(true);

    // A gateway sending a byte per chunked frame: joined, not one view per byte.
    const bytewise = new GatheredChunks((n) => lane.input(n));
    for (const b of entry.subarray(0, 600_000)) bytewise.add(lent(Buffer.from([b]), new Set()));
    const fine = bytewise.viewsUpTo(600_000);
    expect(Buffer.concat(fine).equals(entry.subarray(0, 600_000))).toBe(true);
    expect(fine.length).toBeLessThanOrEqual(3);
  });
});
