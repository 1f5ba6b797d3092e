import { describe, expect, it } from 'vitest';
import { GatheredChunks } from '../services/zip/gathered-chunks';

/** `data` as chunks cut at `cuts`, as a network hands them over. */
function gathered(data: Buffer, cuts: number[]): GatheredChunks {
  const chunks = new GatheredChunks();
  let at = 0;
  for (const cut of [...cuts, data.length]) {
    chunks.add(data.subarray(at, cut));
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
    // chunks of one byte.
    const cutsToTry = [
      ...Array.from({ length: data.length - 1 }, (_, i) => [i + 1]),
      Array.from({ length: data.length - 1 }, (_, i) => i + 1),
    ];
    for (const cuts of cutsToTry) {
      const chunks = gathered(data, cuts);
      expect(chunks.length).toBe(data.length);
      for (let from = 0; from < data.length; from++) {
        const found: number[] = [];
        for (let i = chunks.nextPK(from); i >= 0; i = chunks.nextPK(i + 1)) found.push(i);
        expect(found, `cuts ${cuts.join(',')}, from ${from}`).toEqual(everyPK(from));
      }
      for (let at = 0; at + 4 <= data.length; at++) expect(chunks.u32(at)).toBe(data.readUInt32LE(at));
      for (let from = 0; from <= data.length; from++)
        for (let to = from; to <= data.length; to++)
          expect(chunks.copy(from, to).equals(data.subarray(from, to))).toBe(true);
      for (let end = 0; end <= data.length; end++)
        expect(Buffer.concat(chunks.viewsUpTo(end)).equals(data.subarray(0, end))).toBe(true);
    }
  });
});
