import { createHash, randomBytes } from 'node:crypto';
import type { OverlayOptions } from 'sharp';
import { loadSharp } from './heavy-modules';
import { hslToRgb, PicturePixels } from './picture-pixels';

export type OutputMime = 'image/png' | 'image/jpeg' | 'image/webp';

export const EXTENSION_OF: Record<OutputMime, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

export interface RenderRequest {
  prompt: string;
  /** The item id (or a realtime label) printed on the image so people and tests can tell images apart. */
  label: string;
  /** Seed material beside the prompt, such as the output index. */
  variant: string;
  width: number;
  height: number;
  mime: OutputMime;
  /** Reference or input images, shown as thumbnails in the top-right corner. */
  thumbnails?: Buffer[];
}

/** Pango's font list: Latin, then the CJK faces Linux, macOS and Windows have. */
const FONT = 'DejaVu Sans, WenQuanYi Micro Hei, Noto Sans CJK SC, PingFang SC, Microsoft YaHei, sans-serif';

/**
 * `[seed:X]` in a prompt fixes the picture's seed, as a fixed seed does on a real model: every item
 * and output with the same X gets the same picture, told apart only by its printed label and a
 * small mark of its variant, so they are near-identical (what the studio's stacks are for).
 */
export const FIXED_SEED = /\[seed:([^\]]{1,64})\]/;

/**
 * `[similar:X]`: the same picture as `[seed:X]`, but each output changes it for real (a shape moved
 * and a patch of light), as a rerun with a slightly different prompt does: "similar", not
 * near-identical, for the studio's looser grouping.
 */
export const SIMILAR_SEED = /\[similar:([^\]]{1,64})\]/;

function seedBytes(req: RenderRequest): Buffer {
  const fixed = FIXED_SEED.exec(req.prompt) ?? SIMILAR_SEED.exec(req.prompt);
  if (fixed) return createHash('sha256').update(`seed:${fixed[1]}`).digest();
  return createHash('sha256').update(req.prompt).update('\0').update(req.variant).digest();
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A similar variant's own change: a bright shape and a shadow, placed by the variant. */
function drawChange(picture: PicturePixels, req: RenderRequest): void {
  const { width, height } = req;
  const v = createHash('sha256').update(req.variant).update(req.label).digest();
  const unit = Math.min(width, height);
  picture.circle((v[1]! / 255) * width, (v[2]! / 255) * height, unit * 0.1, [255, 255, 255], 0.32);
  picture.rect(
    (v[3]! / 255) * width * 0.8,
    (v[4]! / 255) * height * 0.8,
    unit * 0.16,
    unit * 0.13,
    [0, 0, 0],
    0.28,
  );
}

/**
 * The picture without its text: the seed's gradient, 24 translucent circles placed and coloured by
 * the seed, a variant's mark or change, the dark band the prompt is printed on, and the white boxes
 * behind the thumbnails.
 */
function drawPicture(req: RenderRequest, boxes: { x: number; y: number; size: number }[]): PicturePixels {
  const { width, height } = req;
  const seed = seedBytes(req);
  const hue = (seed[0]! * 360) / 256;
  const unit = Math.min(width, height);
  const picture = new PicturePixels(width, height);
  picture.diagonalGradient(hslToRgb(hue, 55, 42), hslToRgb((hue + 140) % 360, 50, 22));
  for (let i = 0; i < 24; i++) {
    const b = seed[(i + 1) % seed.length]!;
    const c = seed[(i * 7 + 3) % seed.length]!;
    const color = hslToRgb((hue + b * 1.4) % 360, 70, 45 + (c % 30));
    picture.circle((b / 255) * width, (c / 255) * height, unit * (0.04 + ((b ^ c) % 40) / 200), color, 0.28);
  }
  if (SIMILAR_SEED.test(req.prompt)) drawChange(picture, req);
  if (FIXED_SEED.test(req.prompt)) {
    // The variant's own small mark: what tells two outputs of one fixed seed apart.
    const v = createHash('sha256').update(req.variant).update(req.label).digest();
    const color = hslToRgb((v[0]! * 360) / 256, 70, 60);
    picture.circle((v[1]! / 255) * width, (v[2]! / 255) * height, unit * 0.02, color, 0.5);
  }
  picture.rect(0, height * 0.3, width, height * 0.4, [0, 0, 0], 0.45);
  for (const box of boxes) picture.rect(box.x - 4, box.y - 4, box.size + 8, box.size + 8, [255, 255, 255], 1);
  return picture;
}

type TextOverlay = { input: Buffer; raw: { width: number; height: number; channels: 4 }; height: number };

/**
 * White text set by Pango (inside sharp), wrapped by words for Latin text and by characters for CJK,
 * at most `maxHeight` tall (later lines are cut, as the canvas's line limit did).
 */
async function textImage(
  text: string,
  options: { px: number; bold?: boolean; width: number; maxHeight: number },
): Promise<TextOverlay | undefined> {
  if (!text.trim()) return undefined;
  const sharp = await loadSharp();
  const weight = options.bold ? ' weight="bold"' : '';
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="#ffffff"${weight}>${escapeXml(text.replace(/\s+/g, ' ').trim())}</span>`,
      font: `${FONT} ${options.px}px`,
      width: Math.max(1, Math.floor(options.width)),
      wrap: 'word-char',
      // Pango's own line height is about 1.16 em; this adds what makes it the 1.3 em it always was.
      spacing: Math.round(options.px * 0.14),
      rgba: true,
    },
  })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const width = Math.min(info.width, Math.floor(options.width));
  const height = Math.min(info.height, Math.floor(options.maxHeight));
  if (height < 1 || width < 1) return undefined;
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    data.copy(out, y * width * 4, y * info.width * 4, (y * info.width + width) * 4);
  }
  // Pango's antialiased edges are lighter than the canvas's: each pixel's alpha a becomes
  // 1 - (1 - a)², as if drawn twice, which brings the letters to the weight the stacks' hashes knew.
  for (let i = 3; i < out.length; i += 4) {
    const rest = 255 - out[i]!;
    out[i] = 255 - Math.round((rest * rest) / 255);
  }
  return { input: out, raw: { width, height, channels: 4 }, height };
}

/** Draws a deterministic picture for a prompt: same prompt and variant, same pixels. */
export async function renderImage(req: RenderRequest): Promise<Buffer> {
  const sharp = await loadSharp();
  const { width, height } = req;
  const unit = Math.min(width, height);
  const margin = Math.round(unit * 0.06);

  const thumbSize = Math.round(unit * 0.18);
  const thumbs: OverlayOptions[] = [];
  const boxes: { x: number; y: number; size: number }[] = [];
  for (const [i, thumb] of (req.thumbnails ?? []).slice(0, 4).entries()) {
    try {
      const input = await sharp(thumb).resize(thumbSize, thumbSize, { fit: 'fill' }).png().toBuffer();
      const x = width - margin - (i + 1) * (thumbSize + 8);
      boxes.push({ x, y: margin, size: thumbSize });
      thumbs.push({ input, left: x, top: margin });
    } catch {
      // A thumbnail that cannot be drawn does not spoil the picture; it was validated on upload.
    }
  }

  const overlays: OverlayOptions[] = [...thumbs];
  const promptSize = Math.max(12, Math.round(unit * 0.045));
  const prompt = await textImage(req.prompt, {
    px: promptSize,
    width: width - margin * 2,
    maxHeight: height * 0.36,
  });
  // Pango's image starts at the ink; the canvas set the first line's em box at 32 % of the height,
  // about a tenth of the size above its tallest letters (measured on the canvas's own pictures).
  if (prompt) {
    const top = Math.round(height * 0.32) + Math.round(promptSize * 0.11);
    overlays.push({ input: prompt.input, raw: prompt.raw, left: margin, top });
  }
  const labelSize = Math.max(12, Math.round(unit * 0.07));
  const label = await textImage(req.label, {
    px: labelSize,
    bold: true,
    width: width - margin * 2,
    maxHeight: labelSize * 1.4,
  });
  // Pango's image ends at the ink; the label's em box sat on the margin, so its baseline is a
  // descent (a fifth of the size) above it; the bold face's side bearing moves it right a little.
  if (label)
    overlays.push({
      input: label.input,
      raw: label.raw,
      left: margin + Math.round(labelSize * 0.04),
      top: Math.max(0, height - margin - label.height - Math.round(labelSize * 0.2)),
    });

  const picture = drawPicture(req, boxes);
  const pipeline = sharp(picture.data, { raw: { width, height, channels: 3 } })
    .composite(overlays)
    .removeAlpha();
  if (req.mime === 'image/jpeg') return pipeline.jpeg({ quality: 88 }).toBuffer();
  if (req.mime === 'image/webp') return pipeline.webp({ quality: 85 }).toBuffer();
  return pipeline.png({ compressionLevel: 6 }).toBuffer();
}

/** A small PNG of a reference image, kept instead of the full upload. Throws when it does not decode. */
export async function makeThumbnail(data: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(data, { limitInputPixels: 100_000_000 }).resize(160, 160, { fit: 'cover' }).png().toBuffer();
}

/** 1K sizes the vendor publishes for the common ratios; 2K and 4K double and quadruple them. */
const ONE_K: Record<string, [number, number]> = {
  '1:1': [1024, 1024],
  '2:3': [832, 1248],
  '3:2': [1248, 832],
  '3:4': [864, 1184],
  '4:3': [1184, 864],
  '4:5': [896, 1152],
  '5:4': [1152, 896],
  '9:16': [768, 1344],
  '16:9': [1344, 768],
  '21:9': [1536, 672],
};

/** Pixel size from a tier and a ratio; ratios without a published size keep the 1K area. */
export function sizeFor(
  tier: '1K' | '2K' | '4K',
  ratio: string | undefined,
): { width: number; height: number } {
  const scale = tier === '4K' ? 4 : tier === '2K' ? 2 : 1;
  const known = ONE_K[ratio ?? '1:1'];
  if (known) return { width: known[0] * scale, height: known[1] * scale };
  const [w, h] = (ratio ?? '1:1').split(':').map(Number) as [number, number];
  const width = Math.round((1024 * Math.sqrt(w / h)) / 16) * 16 * scale;
  const height = Math.round((1024 * Math.sqrt(h / w)) / 16) * 16 * scale;
  return { width, height };
}

/** Which image format the bytes are, by their magic numbers. */
export function sniffImage(data: Buffer): OutputMime | undefined {
  if (
    data.length >= 8 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (
    data.length >= 12 &&
    data.toString('ascii', 0, 4) === 'RIFF' &&
    data.toString('ascii', 8, 12) === 'WEBP'
  )
    return 'image/webp';
  return undefined;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * The image with `bytes` more of random noise inside it, where decoders skip it: a private ancillary
 * PNG chunk before IEND, JPEG APP15 segments after SOI, an unknown WebP chunk at the end. Random, so
 * a deflating ZIP cannot shrink it; the pixels are unchanged.
 */
export function padImage(data: Buffer, mime: OutputMime, bytes: number): Buffer {
  if (bytes <= 0) return data;
  const noise = randomBytes(bytes);
  if (mime === 'image/png') {
    const iend = data.length - 12;
    const head = Buffer.alloc(8);
    head.writeUInt32BE(bytes, 0);
    head.write('sbPd', 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), noise])));
    return Buffer.concat([data.subarray(0, iend), head, noise, crc, data.subarray(iend)]);
  }
  if (mime === 'image/jpeg') {
    const segments: Buffer[] = [];
    for (let at = 0; at < bytes; at += 65533) {
      const part = noise.subarray(at, at + 65533);
      const marker = Buffer.from([0xff, 0xef, 0, 0]);
      marker.writeUInt16BE(part.length + 2, 2);
      segments.push(marker, part);
    }
    return Buffer.concat([data.subarray(0, 2), ...segments, data.subarray(2)]);
  }
  const padded = noise.length % 2 ? Buffer.concat([noise, Buffer.alloc(1)]) : noise;
  const head = Buffer.alloc(8);
  head.write('PADD', 0, 'ascii');
  head.writeUInt32LE(bytes, 4);
  const out = Buffer.concat([data, head, padded]);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}
