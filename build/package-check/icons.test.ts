// Every app icon is derived from build/icon.svg by build/icons.mjs (sharp for the PNGs, png2icons for
// .ico and .icns); electron-builder's config points at what it makes.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../../electron-builder.config';
import { ICONS_DIR, makeIcons, PNG_SIZES } from '../icons.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let work: string;
let icons: Awaited<ReturnType<typeof makeIcons>>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'studio-icons-'));
  icons = await makeIcons(work);
}, 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('icons made from build/icon.svg', () => {
  it('has a square PNG of each size from 16 to 1024 for Linux', async () => {
    expect(PNG_SIZES).toEqual(expect.arrayContaining([16, 32, 48, 64, 128, 256, 512, 1024]));
    for (const size of PNG_SIZES) {
      const meta = await sharp(join(icons.pngDir, `${size}x${size}.png`)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', size, size]);
    }
  });

  it('has a Windows .ico up to 256 px and a macOS .icns', async () => {
    const ico = await readFile(icons.ico);
    // ICONDIR: reserved 0, type 1 (icon), then the image count.
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    expect(ico.readUInt16LE(4)).toBeGreaterThanOrEqual(5);
    // The first entry's width byte 0 means 256 px.
    expect(ico[6]).toBe(0);
    const icns = await readFile(icons.icns);
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
  });

  it('is where the electron-builder config looks for each platform', () => {
    const made = (path: string) => join(ICONS_DIR, path.slice(work.length + 1));
    expect(join(root, String(config.linux?.icon))).toBe(made(icons.pngDir));
    expect(join(root, String(config.win?.icon))).toBe(made(icons.ico));
    expect(join(root, String(config.mac?.icon))).toBe(made(icons.icns));
  });
});
