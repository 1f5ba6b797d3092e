import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative as relativeTo } from 'node:path';
import { describe, expect, it } from 'vitest';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, submitAndDownload } from './helpers/studio-fixture';
import type { StudioServices } from '../services/studio-services';
import { startTestBrowserMode } from './helpers/browser-mode-fixture';

const PROMPTS = ['A red fox in the snow', '雪地里的红狐狸', 'A blue whale [fail]', 'A green teapot'];

async function downloadedLibrary(services: StudioServices): Promise<string[]> {
  await submitAndDownload(services, promptsDraft(`export-${Date.now()}`, 'Export test', PROMPTS, 'p'));
  const { items } = await call(services, 'library.query', {});
  return (items as { id: string }[]).map((i) => i.id);
}

/** Unzips with the system's unzip, as a person would, and reads what came out. */
function unzipped(file: string) {
  expect(execFileSync('unzip', ['-t', file]).toString()).toContain('No errors detected');
  const out = mkdtempSync(join(tmpdir(), 'export-out-'));
  execFileSync('unzip', ['-q', file, '-d', out]);
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
    file: string;
    prompt: string;
  }[];
  const prompts = manifest.map((entry) => iTXtChunks(readFileSync(join(out, entry.file))).prompt);
  return {
    images: readdirSync(join(out, 'images')).filter((f) => f.endsWith('.png')),
    manifest,
    prompts,
    csv: readFileSync(join(out, 'manifest.csv'), 'utf8'),
  };
}

/** The uncompressed iTXt chunks of a PNG: keyword, NUL, flags, method, language NUL, translated NUL, text. */
function iTXtChunks(png: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  for (let at = 8; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    const data = png.subarray(at + 8, at + 8 + length);
    if (png.toString('latin1', at + 4, at + 8) === 'iTXt') {
      const k = data.indexOf(0);
      const translated = data.indexOf(0, data.indexOf(0, k + 3) + 1);
      out[data.subarray(0, k).toString('latin1')] = data.subarray(translated + 1).toString('utf8');
    }
    at += 12 + length;
  }
  return out;
}

describe('ZIP export in browser mode, over the real HTTP API', async () => {
  // Items fail only where a prompt says [fail], so the images to expect are known.
  process.env.STUDIO_SANDBOX_ITEM_FAILURE_RATE = '0';
  const { host, services } = await startTestBrowserMode('export-web');
  const auth = { authorization: `Bearer ${host.token}` };

  it('prepares the ZIP, serves it once to the token holder, and never puts it in JSON', async () => {
    const ids = await downloadedLibrary(services);
    expect(ids).toHaveLength(3);
    const res = await fetch(`${host.origin}/api/library.exportZip`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ ids }),
    });
    const body = (await res.json()) as { result: Record<string, unknown> };
    expect(body.result).toMatchObject({ images: 3, canceled: false, path: null });
    expect(JSON.stringify(body).length).toBeLessThan(1000);
    const url = `${host.origin}${body.result.downloadUrl as string}`;

    expect((await fetch(url)).status).toBe(401);
    const download = await fetch(url, { headers: auth });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    expect(download.headers.get('content-disposition')).toContain(body.result.name as string);
    const file = join(mkdtempSync(join(tmpdir(), 'export-')), 'picks.zip');
    writeFileSync(file, Buffer.from(await download.arrayBuffer()));

    const zip = unzipped(file);
    expect(zip.images).toHaveLength(3);
    expect(zip.manifest.map((m) => m.prompt).sort()).toEqual(
      PROMPTS.filter((p) => !p.includes('[fail]')).sort(),
    );
    expect(zip.prompts.sort()).toEqual(zip.manifest.map((m) => m.prompt).sort());
    expect(zip.csv).toContain('雪地里的红狐狸');

    const again = await fetch(url, { headers: auth });
    expect(again.status).toBe(404);
    expect(((await again.json()) as any).error.code).toBe('STUDIO_EXPORT_GONE');
  });
});

describe('ZIP export in the desktop app', async () => {
  const target = join(mkdtempSync(join(tmpdir(), 'export-desktop-')), 'chosen', 'my picks.zip');
  let answer: string | null = target;
  const asked: string[] = [];
  const services = await startServices({
    host: 'desktop',
    pickSavePath: async (name) => {
      asked.push(name);
      return answer;
    },
  });

  it('writes the ZIP where the save dialog said, and nothing when it was dismissed', async () => {
    const ids = await downloadedLibrary(services);
    mkdirSync(join(target, '..'), { recursive: true });
    const out = await call(services, 'library.exportZip', { ids });
    expect(asked[0]).toMatch(/^picks-.*\.zip$/);
    expect(out).toMatchObject({ images: 3, canceled: false, path: target, downloadUrl: null });
    const zip = unzipped(target);
    expect(zip.images).toHaveLength(3);
    expect(readdirSync(join(target, '..'))).toEqual(['my picks.zip']);

    // A place that cannot be written: a clear error, and no half ZIP left behind.
    answer = join(target, 'inside a file.zip');
    const refused = await services.dispatch('library.exportZip', { ids });
    // In words: Node's own ("ENOTDIR: not a directory, open …") are not for people.
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'STUDIO_EXPORT_FAILED',
        message: expect.stringMatching(/a file is in the way of a folder\.$/),
      },
    });
    expect(JSON.stringify(refused)).not.toMatch(/ENOTDIR|EEXIST|open '/);
    expect(readdirSync(join(target, '..'))).toEqual(['my picks.zip']);

    answer = null;
    const canceled = await call(services, 'library.exportZip', { ids });
    expect(canceled).toMatchObject({ canceled: true, path: null, downloadUrl: null, images: 0 });
    expect(existsSync(join(services.dataDir, 'exports', canceled.name))).toBe(false);
  });
});

describe('export to a typed folder', async () => {
  const services = await startServices();
  const ids = await downloadedLibrary(services);

  it('refuses a relative path, a file and a system location before writing, in plain words', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'export-folder-')), 'picks');
    const file = join(services.dataDir, 'a-file.txt');
    writeFileSync(file, 'x');
    // Relative to the working folder, this lands in the temporary folder: where it used to be written.
    const relative = join(relativeTo(process.cwd(), out), 'from-cwd');
    for (const folder of [
      relative,
      'picks',
      file,
      join(file, 'inside'),
      '/proc/self',
      `/tmp/${'n'.repeat(300)}`,
    ]) {
      const answer = await services.dispatch('library.exportFolder', { ids, folder });
      expect(answer, folder).toMatchObject({ ok: false, error: { code: 'STUDIO_EXPORT_FOLDER_INVALID' } });
      if (!answer.ok) expect(answer.error.message, folder).not.toMatch(/\bE[A-Z]{4,}\b|mkdir|stat '/);
    }
    expect(existsSync(join(out, 'from-cwd'))).toBe(false);
    expect(existsSync(join(process.cwd(), 'picks'))).toBe(false);
    const done = await call(services, 'library.exportFolder', { ids, folder: out });
    expect(done).toMatchObject({ path: out, images: 3 });
    expect(readdirSync(out)).toContain('manifest.json');
  });

  it('never writes over what the folder holds: exported twice, both exports are whole', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'export-twice-')), 'picks');
    await call(services, 'library.exportFolder', { ids, folder: out });
    const before = new Map(readdirSync(out).map((f) => [f, readFileSync(join(out, f))]));
    await call(services, 'library.exportFolder', { ids, folder: out });
    for (const [f, bytes] of before) expect(readFileSync(join(out, f)).equals(bytes), f).toBe(true);
    expect(readdirSync(out).filter((f) => f.endsWith('.png'))).toHaveLength(6);
    expect(readdirSync(out)).toEqual(expect.arrayContaining(['manifest~2.json', 'manifest~2.csv']));
  });
});
