/**
 * The sandbox picture's shapes, drawn into an RGB buffer in plain JavaScript: a two-stop linear
 * gradient, translucent circles and rectangles. It reproduces, to the pixel away from shape edges,
 * what @napi-rs/canvas (Skia) drew before: colours rounded to 8 bits as CSS parses them, the gradient
 * sampled at pixel centres and rounded, translucent fills blended with their 8-bit alpha. The studio's
 * near-duplicate stacks were calibrated on these pictures, so they must not drift; sharp then adds
 * the text and encodes, and the 35 MB canvas package no longer ships.
 */
export type Rgb = [number, number, number];

const f32 = Math.fround;

function hueToRgb(n1: number, n2: number, hue: number): number {
  const h = f32(hue - Math.floor(hue));
  if (h < f32(1 / 6)) return f32(n1 + f32(f32(f32(n2 - n1) * h) * 6));
  if (h < 0.5) return n2;
  if (h < f32(2 / 3)) return f32(n1 + f32(f32(f32(n2 - n1) * f32(f32(2 / 3) - h)) * 6));
  return n1;
}

/**
 * CSS `hsl(h, s%, l%)` as the canvas's colour parser turns it into 8 bits: CSS Color 3's algorithm in
 * 32-bit floats, truncated (so hsl(141.3, 50%, 40%) is 50, 153, 87, not 51). Checked against the
 * canvas itself in sandbox/test/picture-pixels.test.ts.
 */
export function hslToRgb(h: number, s: number, l: number): Rgb {
  const [hue, sat, light] = [f32(h / 360), f32(s / 100), f32(l / 100)];
  const n2 = light < 0.5 ? f32(light * f32(1 + sat)) : f32(f32(light + sat) - f32(light * sat));
  const n1 = f32(f32(2 * light) - n2);
  const channel = (value: number) => Math.trunc(f32(value * 255));
  return [
    channel(hueToRgb(n1, n2, f32(hue + f32(1 / 3)))),
    channel(hueToRgb(n1, n2, hue)),
    channel(hueToRgb(n1, n2, f32(hue - f32(1 / 3)))),
  ];
}

export class PicturePixels {
  readonly data: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = Buffer.alloc(width * height * 3);
  }

  /** A gradient from (0, 0) to the far corner, as createLinearGradient(0, 0, width, height). */
  diagonalGradient(from: Rgb, to: Rgb): void {
    const { width, height, data } = this;
    const norm = width * width + height * height;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const t = Math.min(1, Math.max(0, ((x + 0.5) * width + (y + 0.5) * height) / norm));
        const at = (y * width + x) * 3;
        for (let k = 0; k < 3; k++) data[at + k] = Math.round(from[k]! + (to[k]! - from[k]!) * t);
      }
    }
  }

  /**
   * One pixel covered by `coverage` of a colour at `alpha`, blended as Skia does: its alpha cut to 8
   * bits (floor), the colour premultiplied and rounded, the pixel below scaled by what is left and
   * rounded. Measured against @napi-rs/canvas, not assumed: it matches every sample.
   */
  private blend(x: number, y: number, color: Rgb, alpha: number, coverage: number): void {
    const a = Math.floor(alpha * 255) * coverage;
    if (a <= 0) return;
    const at = (y * this.width + x) * 3;
    for (let k = 0; k < 3; k++) {
      const d = this.data[at + k]!;
      this.data[at + k] = Math.round((color[k]! * a) / 255) + Math.round((d * (255 - a)) / 255);
    }
  }

  /**
   * `blend` at full coverage for a run of pixels of one row, by tables: every pixel of a shape's
   * inside gets the same premultiplied colour plus its own value scaled, so both are computed once.
   */
  private solidRow(y: number, from: number, to: number, solid: { add: Rgb; keep: Uint8Array }): void {
    const { data, width } = this;
    const { add, keep } = solid;
    for (let at = (y * width + from) * 3, end = (y * width + to) * 3; at < end; at += 3) {
      data[at] = add[0] + keep[data[at]!]!;
      data[at + 1] = add[1] + keep[data[at + 1]!]!;
      data[at + 2] = add[2] + keep[data[at + 2]!]!;
    }
  }

  private solid(color: Rgb, alpha: number): { add: Rgb; keep: Uint8Array } {
    const a = Math.floor(alpha * 255);
    const keep = new Uint8Array(256);
    for (let d = 0; d < 256; d++) keep[d] = Math.round((d * (255 - a)) / 255);
    return { add: [0, 1, 2].map((k) => Math.round((color[k]! * a) / 255)) as Rgb, keep };
  }

  /** A filled circle, its edge antialiased by 4×4 samples per pixel. */
  circle(cx: number, cy: number, r: number, color: Rgb, alpha: number): void {
    const solid = this.solid(color, alpha);
    const y0 = Math.max(0, Math.floor(cy - r - 1));
    const y1 = Math.min(this.height - 1, Math.ceil(cy + r + 1));
    const r2 = r * r;
    for (let y = y0; y <= y1; y++) {
      const dy = y + 0.5 - cy;
      // Pixels whose every corner is inside are filled by tables; the ring around them is sampled.
      const dyFar = Math.abs(dy) + 0.5;
      const half = r2 - dyFar * dyFar > 0 ? Math.sqrt(r2 - dyFar * dyFar) : -1;
      const innerFrom = half < 0 ? 0 : Math.max(0, Math.ceil(cx - half));
      const innerTo = half < 0 ? 0 : Math.min(this.width, Math.floor(cx + half));
      const outerHalf = Math.sqrt(Math.max(0, r2 - Math.max(0, Math.abs(dy) - 0.5) ** 2));
      const x0 = Math.max(0, Math.floor(cx - outerHalf - 1));
      const x1 = Math.min(this.width - 1, Math.ceil(cx + outerHalf + 1));
      if (innerTo > innerFrom) this.solidRow(y, innerFrom, innerTo, solid);
      for (let x = x0; x <= x1; x++) {
        if (innerTo > innerFrom && x >= innerFrom && x < innerTo) continue;
        let inside = 0;
        for (let sy = 0; sy < 4; sy++) {
          for (let sx = 0; sx < 4; sx++) {
            const px = x + (sx + 0.5) / 4 - cx;
            const py = y + (sy + 0.5) / 4 - cy;
            if (px * px + py * py <= r2) inside++;
          }
        }
        if (inside) this.blend(x, y, color, alpha, inside / 16);
      }
    }
  }

  /** A filled rectangle; partly covered edge pixels get the part they hold. */
  rect(left: number, top: number, w: number, h: number, color: Rgb, alpha: number): void {
    const right = left + w;
    const bottom = top + h;
    const part = (p: number, lo: number, hi: number) => Math.max(0, Math.min(p + 1, hi) - Math.max(p, lo));
    const solid = this.solid(color, alpha);
    const fullFrom = Math.max(0, Math.ceil(left));
    const fullTo = Math.min(this.width, Math.floor(right));
    for (let y = Math.max(0, Math.floor(top)); y < Math.min(this.height, Math.ceil(bottom)); y++) {
      const cy = part(y, top, bottom);
      for (let x = Math.max(0, Math.floor(left)); x < Math.min(this.width, Math.ceil(right)); x++) {
        if (cy === 1 && x >= fullFrom && x < fullTo) {
          this.solidRow(y, fullFrom, fullTo, solid);
          x = fullTo - 1;
          continue;
        }
        this.blend(x, y, color, alpha, cy * part(x, left, right));
      }
    }
  }
}
