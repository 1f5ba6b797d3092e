#!/usr/bin/env node
// Derives every app icon from the one source image, build/icon.svg, so no generated icon is ever
// committed or drawn twice: PNGs for Linux, icon.ico for the Windows installer, icon.icns for macOS.
// `npm run dist` runs it first; the output folder (build/icons/) is gitignored.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import png2icons from 'png2icons';
import sharp from 'sharp';

const here = dirname(fileURLToPath(import.meta.url));

export const ICON_SOURCE = join(here, 'icon.svg');
export const ICONS_DIR = join(here, 'icons');
/** The sizes Linux desktops look for (hicolor theme), up to the 1024 macOS and the stores want. */
export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];

/** Renders the SVG into `outDir`: png/<n>x<n>.png for each size, icon.png, icon.ico and icon.icns. */
export async function makeIcons(outDir = ICONS_DIR) {
  const svg = await readFile(ICON_SOURCE);
  const pngDir = join(outDir, 'png');
  await mkdir(pngDir, { recursive: true });
  // Each size is rendered from the vector at its own density, which keeps small sizes crisp
  // where downscaling one big bitmap would blur them.
  const rendered = new Map();
  for (const size of PNG_SIZES) {
    const png = await sharp(svg, { density: (72 * size) / 1024 })
      .resize(size, size)
      .png()
      .toBuffer();
    rendered.set(size, png);
    // electron-builder reads a Linux icon folder by these names.
    await writeFile(join(pngDir, `${size}x${size}.png`), png);
  }
  const master = rendered.get(1024);
  await writeFile(join(outDir, 'icon.png'), master);
  const ico = png2icons.createICO(master, png2icons.BICUBIC2, 0, true, true);
  const icns = png2icons.createICNS(master, png2icons.BICUBIC2, 0);
  if (!ico || !icns) throw new Error('png2icons could not convert build/icon.svg');
  await writeFile(join(outDir, 'icon.ico'), ico);
  await writeFile(join(outDir, 'icon.icns'), icns);
  return {
    pngDir,
    png: join(outDir, 'icon.png'),
    ico: join(outDir, 'icon.ico'),
    icns: join(outDir, 'icon.icns'),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ? resolve(process.argv[2]) : ICONS_DIR;
  await makeIcons(outDir);
  console.log(`icons: ${PNG_SIZES.join(', ')} px, icon.ico and icon.icns in ${outDir}`);
}
