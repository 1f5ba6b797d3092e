// The packaging check (`npm run test:package`, after `npm run build`): packages out/ with the real
// electron-builder config into the unpacked Linux `dir` target, offline, against a stand-in Electron,
// then checks what a user's installer would hold: flipped fuses, the bundles, production packages only,
// native modules outside the asar, and a packaged app that actually starts and answers.
import asar from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { archFromString, build, Platform } from 'electron-builder';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builderConfig } from '../../electron-builder.config';
import { PUBLISHER_NAME } from '../../src-main/electron/product';
import { APP_FILES_LIMIT_MB } from '../size-limits.mjs';
import { sizeReport } from './size-report';
import { ELECTRON_DEFAULT_FUSES, FUSE_OFF, FUSE_ON, makeElectronStandin } from './electron-standin';
import { installedPackages, lockedPackages } from './installed-packages';
import { bareImports, runBeside, unresolvable } from './module-imports';
import { startPackagedBrowserMode, type PackagedBrowserMode } from './packaged-browser-mode';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The update feed this check builds with, as a release would set STUDIO_UPDATE_URL. */
const FEED = 'https://updates.batch-image-studio.example/stable/';
const config = builderConfig({ STUDIO_UPDATE_URL: FEED });
const BUNDLES = ['out/main/index.js', 'out/main/web.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
/** Packages only the build and the tests use: none may reach a user's disk. */
const DEV_ONLY = [
  'react',
  'react-dom',
  'vite',
  'electron',
  'electron-builder',
  'electron-vite',
  'typescript',
  'vitest',
  'playwright',
  '@playwright/test',
  'eslint',
  'prettier',
  'tsx',
];

let work: string;
let appOutDir: string;
let resources: string;
/** app.asar extracted, with app.asar.unpacked laid over it, as Electron's asar support presents it. */
let appDir: string;
let entries: Set<string>;
let app: PackagedBrowserMode | undefined;

beforeAll(async () => {
  const missing = BUNDLES.filter((b) => !existsSync(join(root, b)));
  if (missing.length) throw new Error(`Run \`npm run build\` first; missing ${missing.join(', ')}`);
  work = await mkdtemp(join(tmpdir(), 'studio-package-check-'));
  const electronDist = await makeElectronStandin(join(work, 'electron-standin-dist'));
  const output = join(work, 'dist');
  await build({
    projectDir: root,
    publish: 'never',
    targets: Platform.LINUX.createTarget('dir', archFromString(process.arch)),
    config: { ...config, electronDist, directories: { ...config.directories, output } },
  });
  const unpacked = (await readdir(output)).find((name) => /^linux-.*unpacked$/.test(name));
  if (!unpacked) throw new Error(`No linux-*-unpacked folder in ${output}`);
  appOutDir = join(output, unpacked);
  resources = join(appOutDir, 'resources');
  entries = new Set(asar.listPackage(join(resources, 'app.asar'), { isPack: false }).map(slashed));
  appDir = join(work, 'app');
  asar.extractAll(join(resources, 'app.asar'), appDir);
  await cp(join(resources, 'app.asar.unpacked'), appDir, { recursive: true });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** asar lists paths with the platform's separator and a leading one; compare them as '/a/b'. */
function slashed(path: string): string {
  return path.split(/[\\/]/).join('/');
}

describe('the packaged app', () => {
  it('has the Electron fuses flipped as configured', async () => {
    const executable = join(appOutDir, 'batch-image-studio');
    expect(existsSync(executable)).toBe(true);
    const wire = await getCurrentFuseWire(executable);
    const expected: [FuseV1Options, number][] = [
      [FuseV1Options.RunAsNode, FUSE_OFF],
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable, FUSE_OFF],
      [FuseV1Options.EnableNodeCliInspectArguments, FUSE_OFF],
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation, FUSE_ON],
      [FuseV1Options.OnlyLoadAppFromAsar, FUSE_ON],
      [FuseV1Options.EnableCookieEncryption, FUSE_ON],
    ];
    for (const [fuse, state] of expected) {
      // The stand-in starts from Electron's defaults, so only packaging can have set this value.
      expect(ELECTRON_DEFAULT_FUSES[fuse], FuseV1Options[fuse]).not.toBe(state);
      expect(String.fromCharCode(wire[fuse] as number), FuseV1Options[fuse]).toBe(String.fromCharCode(state));
    }
  });

  it('holds the main, preload and renderer bundles and the page assets', async () => {
    for (const bundle of BUNDLES) expect(entries, bundle).toContain(`/${bundle}`);
    const html = await readFile(join(appDir, 'out/renderer/index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect(entries, asset).toContain(`/out/renderer/${asset}`);
    const pkg = JSON.parse(await readFile(join(appDir, 'package.json'), 'utf8'));
    expect(pkg.main).toBe('out/main/index.js');
  });

  it('leaves out sources, tests, docs and source maps', () => {
    const strays = [...entries].filter(
      (e) =>
        /^\/(src-[^/]+|sandbox|e2e|bench|docs|build)(\/|$)/.test(e) ||
        /^\/[^/]+\.(md|ts)$/.test(e) ||
        (e.startsWith('/out/') && e.endsWith('.map')),
    );
    expect(strays).toEqual([]);
  });

  it('ships the contact sheet font as its regular weight only', () => {
    const fonts = [...entries].filter((e) => e.startsWith('/node_modules/@fontsource/noto-sans-sc/files/'));
    expect(fonts.filter((e) => e.endsWith('-400-normal.woff')).length).toBeGreaterThan(90);
    expect(fonts.filter((e) => !e.endsWith('-400-normal.woff'))).toEqual([]);
    expect(entries).toContain('/node_modules/@fontsource/noto-sans-sc/400.css');
  });

  it('ships production packages only, and all of them', async () => {
    const installed = await installedPackages(join(appDir, 'node_modules'));
    const locked = await lockedPackages(join(root, 'package-lock.json'));
    for (const name of DEV_ONLY) expect(installed.map((p) => p.name)).not.toContain(name);
    // Every packaged package is a version the production tree needs (the lock marks dev-only ones).
    const devOnly = installed.filter((p) => !locked.production.has(`${p.name}@${p.version}`));
    expect(devOnly.map((p) => `${p.name}@${p.version}`)).toEqual([]);
    // And every package the production tree always needs is there (optional ones are per platform).
    const have = new Set(installed.map((p) => `${p.name}@${p.version}`));
    expect([...locked.required].filter((id) => !have.has(id))).toEqual([]);
  });

  it('keeps the native modules outside the asar', async () => {
    const natives = [...entries].filter((e) => e.endsWith('.node'));
    const sharpBinary = natives.filter((e) => /^\/node_modules\/@img\/sharp-[^/]+\/.*\.node$/.test(e));
    const sqliteBinary = natives.filter((e) => /^\/node_modules\/@libsql\/[^/]+\/.*\.node$/.test(e));
    const crcBinary = natives.filter((e) => /^\/node_modules\/@node-rs\/crc32-[^/]+\/.*\.node$/.test(e));
    expect(crcBinary.length).toBeGreaterThan(0);
    expect(sharpBinary.length).toBeGreaterThan(0);
    // The sandbox draws with sharp: the 35 MB canvas package is a development tool only.
    expect(natives.filter((e) => e.startsWith('/node_modules/@napi-rs/'))).toEqual([]);
    expect(sqliteBinary.length).toBeGreaterThan(0);
    for (const native of natives) {
      expect(existsSync(join(resources, 'app.asar.unpacked', native)), native).toBe(true);
    }
    // sharp's own libvips is a shared library its binary loads by path: it must be unpacked too.
    const libvips = [...entries].filter((e) => /^\/node_modules\/@img\/sharp-libvips-[^/]+\/lib\//.test(e));
    expect(libvips.length).toBeGreaterThan(0);
    for (const lib of libvips) expect(existsSync(join(resources, 'app.asar.unpacked', lib)), lib).toBe(true);
    // And they load: sharp encodes a PNG and draws text, from the packaged files.
    const out = await runBeside(
      join(appDir, 'out/main'),
      `import sharp from 'sharp';\n` +
        `import Database from 'libsql';\n` +
        // The CRC-32 every downloaded image is checked with (src-main/services/zip/crc32.ts).
        `import { crc32 } from '@node-rs/crc32';\n` +
        // The library catalog's driver, with the FTS5 trigram index it needs for Chinese search.
        `const db = new Database(':memory:');\n` +
        `db.exec("create virtual table t using fts5(x, tokenize = 'trigram')");\n` +
        `db.prepare('insert into t (x) values (?)').run('一只青花瓷杯');\n` +
        `const sqlite = db.prepare('select x from t where t match ?').pluck().all('"青花瓷"');\n` +
        `const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#4f7cff' } }).png().toBuffer();\n` +
        // The sandbox's pictures print their prompt with sharp's text (Pango), which needs its fonts.
        `const text = await sharp({ text: { text: 'Studio 工作室', rgba: true } }).png().toBuffer({ resolveWithObject: true });\n` +
        `const crc = crc32(Buffer.from('123456789')).toString(16);\n` +
        `console.log(JSON.stringify({ sharp: png.subarray(1, 4).toString(), text: text.info.width > 0, sqlite, crc }));\n`,
    );
    expect(JSON.parse(out)).toEqual({ sharp: 'PNG', text: true, sqlite: ['一只青花瓷杯'], crc: 'cbf43926' });
  });

  it('finds every package the main and preload bundles import in the packaged node_modules', async () => {
    const specifiers = await bareImports([join(appDir, 'out/main'), join(appDir, 'out/preload')]);
    // Electron provides `electron` itself; anything else must have been packaged.
    const packages = specifiers.filter((s) => s !== 'electron');
    expect(packages).toContain('sharp');
    expect(await unresolvable(join(appDir, 'out/main'), packages)).toEqual([]);
  });

  it('carries app-update.yml with the generic feed and the publisher name', async () => {
    const yml = await readFile(join(resources, 'app-update.yml'), 'utf8');
    const lines = yml.split('\n').map((l) => l.trim());
    expect(lines).toContain('provider: generic');
    expect(lines).toContain(`url: ${FEED}`);
    expect(lines).toContain('updaterCacheDirName: batch-image-studio-updater');
    // The publisher the Windows updater checks each downloaded installer's signature against.
    expect(lines.slice(lines.indexOf('publisherName:') + 1)).toContain(`- ${PUBLISHER_NAME}`);
    // And a build without STUDIO_UPDATE_URL has no feed at all (the studio then says so).
    expect(builderConfig({}).publish).toBeNull();
  });

  it(`keeps the app's own files within ${APP_FILES_LIMIT_MB} MB, and prints what they are`, async () => {
    const report = await sizeReport(resources, join(resources, 'app.asar'));
    console.log(report.text);
    expect(report.totalMB).toBeLessThanOrEqual(APP_FILES_LIMIT_MB);
  });

  it('starts in browser mode from the packaged files and answers the page and the API', async () => {
    app = await startPackagedBrowserMode(appDir, join(work, 'data'));
    const page = await fetch(`${app.origin}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<div id="root"></div>');
    // And every script, style sheet and icon the page asks for, served from the packaged files.
    const assets = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    const TYPES: Record<string, RegExp> = {
      js: /^(text|application)\/javascript\b/,
      css: /^text\/css\b/,
      svg: /^image\/svg\+xml\b/,
      png: /^image\/png\b/,
      ico: /^image\/(x-icon|vnd\.microsoft\.icon)\b/,
      woff2: /^font\/woff2\b/,
      woff: /^font\/woff\b/,
    };
    for (const asset of assets) {
      const response = await fetch(`${app.origin}/${asset}`);
      expect(response.status, asset).toBe(200);
      const ext = asset.slice(asset.lastIndexOf('.') + 1);
      expect(TYPES[ext], `a content type to expect for .${ext}`).toBeDefined();
      expect(response.headers.get('content-type'), asset).toMatch(TYPES[ext]!);
      expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }

    const call = (method: string) =>
      fetch(`${app!.origin}/api/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app!.token}`, 'content-type': 'application/json' },
        body: '{}',
      });
    const info = await call('app.info');
    expect(info.status).toBe(200);
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
    expect((await info.json()).result).toMatchObject({ version: pkg.version, host: 'browser' });
    // A real round trip through the packaged gateway client to the built-in sandbox gateway.
    const connection = await call('connection.check');
    expect(connection.status).toBe(200);
    expect((await connection.json()).result.state).toBe('ok');
  }, 120_000);
});
