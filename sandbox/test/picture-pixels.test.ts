import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { hslToRgb, PicturePixels } from '../picture-pixels';

// The sandbox drew its pictures with @napi-rs/canvas (Skia); the studio's stacks were calibrated on
// them. It now draws them in plain JavaScript so the 35 MB canvas package need not ship; these tests
// hold the two to the same pixels, with the canvas kept as a development dependency for this alone.

const W = 160;
const H = 120;

/** The canvas's pixels as RGB, to compare with PicturePixels' buffer. */
function canvasRgb(draw: (ctx: ReturnType<ReturnType<typeof createCanvas>['getContext']>) => void): Buffer {
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  draw(ctx);
  const rgba = ctx.getImageData(0, 0, W, H).data;
  const rgb = Buffer.alloc(W * H * 3);
  for (let i = 0; i < W * H; i++) rgba.subarray(i * 4, i * 4 + 3).forEach((v, k) => (rgb[i * 3 + k] = v));
  return rgb;
}

function differing(a: Buffer, b: Buffer): number {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) count++;
  return count;
}

describe('the sandbox picture without canvas', () => {
  it('parses hsl() colours as the canvas does', () => {
    const canvas = createCanvas(1, 1);
    const ctx = canvas.getContext('2d');
    for (let i = 0; i < 2000; i++) {
      const [h, s, l] = [(i * 37.3) % 360, [50, 55, 70][i % 3]!, 20 + (i % 61)];
      ctx.fillStyle = `hsl(${h}, ${s}%, ${l}%)`;
      ctx.fillRect(0, 0, 1, 1);
      expect([...ctx.getImageData(0, 0, 1, 1).data.subarray(0, 3)], `hsl(${h}, ${s}%, ${l}%)`).toEqual(
        hslToRgb(h, s, l),
      );
    }
  });

  it('draws the diagonal gradient to the same pixels', () => {
    for (const hue of [0, 35.15625, 202.5, 311.25]) {
      const mine = new PicturePixels(W, H);
      mine.diagonalGradient(hslToRgb(hue, 55, 42), hslToRgb((hue + 140) % 360, 50, 22));
      const theirs = canvasRgb((ctx) => {
        const gradient = ctx.createLinearGradient(0, 0, W, H);
        gradient.addColorStop(0, `hsl(${hue}, 55%, 42%)`);
        gradient.addColorStop(1, `hsl(${(hue + 140) % 360}, 50%, 22%)`);
        ctx.fillStyle = gradient;
        ctx.fillRect(0, 0, W, H);
      });
      expect(differing(mine.data, theirs), `hue ${hue}`).toBe(0);
    }
  });

  it('blends translucent fills to the same pixels, and circles but for a few edge pixels', () => {
    const mine = new PicturePixels(W, H);
    mine.diagonalGradient(hslToRgb(120, 55, 42), hslToRgb(260, 50, 22));
    mine.rect(0, H * 0.3, W, H * 0.4, [0, 0, 0], 0.45);
    mine.circle(50.3, 40.7, 30.2, hslToRgb(33.6, 70, 61), 0.28);
    mine.circle(120, 80, 25, [255, 255, 255], 0.32);
    const theirs = canvasRgb((ctx) => {
      const gradient = ctx.createLinearGradient(0, 0, W, H);
      gradient.addColorStop(0, 'hsl(120, 55%, 42%)');
      gradient.addColorStop(1, 'hsl(260, 50%, 22%)');
      ctx.fillStyle = gradient;
      ctx.fillRect(0, 0, W, H);
      ctx.fillStyle = 'rgba(0, 0, 0, 0.45)';
      ctx.fillRect(0, H * 0.3, W, H * 0.4);
      for (const [x, y, r, style] of [
        [50.3, 40.7, 30.2, 'hsla(33.6, 70%, 61%, 0.28)'],
        [120, 80, 25, 'rgba(255, 255, 255, 0.32)'],
      ] as const) {
        ctx.fillStyle = style;
        ctx.beginPath();
        ctx.arc(x, y, r, 0, Math.PI * 2);
        ctx.fill();
      }
    });
    // Only the circles' antialiased rims (about 2 × 2πr pixels' channels) may differ, and only a little.
    expect(differing(mine.data, theirs)).toBeLessThan(3 * 2 * Math.PI * (30 + 25));
    let worst = 0;
    for (let i = 0; i < mine.data.length; i++) worst = Math.max(worst, Math.abs(mine.data[i]! - theirs[i]!));
    expect(worst).toBeLessThan(32);
  });
});
