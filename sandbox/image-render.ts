import { createHash, randomBytes } from 'node:crypto';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { loadCanvas, loadSharp } from './heavy-modules';

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

const FONT = '"DejaVu Sans", "WenQuanYi Micro Hei", "Noto Sans CJK SC", sans-serif';

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

/** Breaks text into lines that fit, by words for Latin text and by characters for CJK. */
function wrap(ctx: SKRSContext2D, text: string, maxWidth: number, maxLines: number): string[] {
  const tokens =
    text.replace(/\s+/g, ' ').match(/[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]|[^\s\u2E80-\u9FFF]+|\s/g) ??
    [];
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    const next = line + token;
    if (ctx.measureText(next).width <= maxWidth || line.trim() === '') {
      line = next;
      continue;
    }
    lines.push(line.trim());
    line = token.trim();
    if (lines.length === maxLines) break;
  }
  if (lines.length < maxLines && line.trim()) lines.push(line.trim());
  if (lines.length === maxLines && lines.join(' ').length < text.trim().length) {
    lines[maxLines - 1] = lines[maxLines - 1]!.replace(/.{0,2}$/u, '') + '…';
  }
  return lines;
}

/** A similar variant's own change: a bright shape and a shadow, placed by the variant. */
function drawChange(ctx: SKRSContext2D, req: RenderRequest, width: number, height: number): void {
  const v = createHash('sha256').update(req.variant).update(req.label).digest();
  const unit = Math.min(width, height);
  ctx.fillStyle = 'rgba(255, 255, 255, 0.32)';
  ctx.beginPath();
  ctx.arc((v[1]! / 255) * width, (v[2]! / 255) * height, unit * 0.1, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = 'rgba(0, 0, 0, 0.28)';
  ctx.fillRect((v[3]! / 255) * width * 0.8, (v[4]! / 255) * height * 0.8, unit * 0.16, unit * 0.13);
}

/** Draws a deterministic picture for a prompt: same prompt and variant, same pixels. */
export async function renderImage(req: RenderRequest): Promise<Buffer> {
  const { createCanvas, loadImage } = await loadCanvas();
  const { width, height } = req;
  const seed = seedBytes(req);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const hue = (seed[0]! * 360) / 256;

  const background = ctx.createLinearGradient(0, 0, width, height);
  background.addColorStop(0, `hsl(${hue}, 55%, 42%)`);
  background.addColorStop(1, `hsl(${(hue + 140) % 360}, 50%, 22%)`);
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, width, height);

  const unit = Math.min(width, height);
  for (let i = 0; i < 24; i++) {
    const b = seed[(i + 1) % seed.length]!;
    const c = seed[(i * 7 + 3) % seed.length]!;
    ctx.fillStyle = `hsla(${(hue + b * 1.4) % 360}, 70%, ${45 + (c % 30)}%, 0.28)`;
    ctx.beginPath();
    ctx.arc((b / 255) * width, (c / 255) * height, unit * (0.04 + ((b ^ c) % 40) / 200), 0, Math.PI * 2);
    ctx.fill();
  }

  if (SIMILAR_SEED.test(req.prompt)) drawChange(ctx, req, width, height);
  if (FIXED_SEED.test(req.prompt)) {
    // The variant's own small mark: what tells two outputs of one fixed seed apart.
    const v = createHash('sha256').update(req.variant).update(req.label).digest();
    ctx.fillStyle = `hsla(${(v[0]! * 360) / 256}, 70%, 60%, 0.5)`;
    ctx.beginPath();
    ctx.arc((v[1]! / 255) * width, (v[2]! / 255) * height, unit * 0.02, 0, Math.PI * 2);
    ctx.fill();
  }

  const margin = Math.round(unit * 0.06);
  const promptSize = Math.max(12, Math.round(unit * 0.045));
  ctx.fillStyle = 'rgba(0, 0, 0, 0.45)';
  ctx.fillRect(0, height * 0.3, width, height * 0.4);
  ctx.fillStyle = '#ffffff';
  ctx.font = `${promptSize}px ${FONT}`;
  ctx.textBaseline = 'top';
  const lines = wrap(
    ctx,
    req.prompt,
    width - margin * 2,
    Math.max(1, Math.floor((height * 0.36) / (promptSize * 1.3))),
  );
  lines.forEach((line, i) => ctx.fillText(line, margin, height * 0.32 + i * promptSize * 1.3));

  const labelSize = Math.max(12, Math.round(unit * 0.07));
  ctx.font = `bold ${labelSize}px ${FONT}`;
  ctx.textBaseline = 'bottom';
  ctx.fillText(req.label, margin, height - margin, width - margin * 2);

  const thumbs = req.thumbnails ?? [];
  const thumbSize = Math.round(unit * 0.18);
  for (let i = 0; i < Math.min(thumbs.length, 4); i++) {
    try {
      const image = await loadImage(thumbs[i]!);
      const x = width - margin - (i + 1) * (thumbSize + 8);
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(x - 4, margin - 4, thumbSize + 8, thumbSize + 8);
      ctx.drawImage(image, x, margin, thumbSize, thumbSize);
    } catch {
      // A thumbnail that cannot be drawn does not spoil the picture; it was validated on upload.
    }
  }

  // sharp encodes faster than the canvas's own PNG encoder, at a size close to a real model's output.
  const raw = ctx.getImageData(0, 0, width, height);
  const sharp = await loadSharp();
  const pipeline = sharp(Buffer.from(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength), {
    raw: { width, height, channels: 4 },
  }).removeAlpha();
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
