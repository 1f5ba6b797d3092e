import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderImage } from '../image-render';

/** Mean absolute difference of two pictures' pixels, 0–255, read back by sharp. */
async function difference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([a, b].map((img) => sharp(img).resize(64, 64).raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < x!.length; i++) sum += Math.abs(x![i]! - y![i]!);
  return sum / x!.length;
}

describe('a fixed seed in a prompt', () => {
  it('makes near-identical pictures across rows and outputs, and unrelated ones without it', async () => {
    const at = (prompt: string, label: string, variant: string) =>
      renderImage({ prompt, label, variant, width: 512, height: 512, mime: 'image/png' });
    const one = await at('A kettle [seed:k1]', 'row-1', '0');
    const two = await at('A kettle [seed:k1]', 'row-2', '1');
    const free1 = await at('A kettle', 'row-1', '0');
    const free2 = await at('A kettle', 'row-1', '1');
    const near = await difference(one, two);
    const apart = await difference(free1, free2);
    expect(near).toBeLessThan(6);
    expect(apart).toBeGreaterThan(near * 3);
    expect(Buffer.compare(one, two)).not.toBe(0);
  });
});
