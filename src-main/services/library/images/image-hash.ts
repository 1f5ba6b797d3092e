import { loadSharp } from '../../lazy-imports';

/**
 * A 64-bit difference hash (dHash) of an image: greyscale at 9×8, one bit per pair of neighbours
 * (is the left one brighter?). Near-identical pictures differ in a few bits, unrelated ones in about
 * half. sharp's shrink-on-load keeps it cheap: the decoder reads the image once, scaled down.
 */
export async function dHash(input: string | Buffer): Promise<string> {
  const sharp = await loadSharp();
  const pixels = await sharp(input, { limitInputPixels: 268_402_689, sequentialRead: true })
    .greyscale()
    .resize(9, 8, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer();
  let hex = '';
  for (let row = 0; row < 8; row++) {
    let byte = 0;
    for (let col = 0; col < 8; col++) {
      const left = pixels[row * 9 + col]!;
      const right = pixels[row * 9 + col + 1]!;
      byte = (byte << 1) | (left > right ? 1 : 0);
    }
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}
