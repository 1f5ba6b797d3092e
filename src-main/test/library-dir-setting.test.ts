import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src-shared/i18n/en';
import { zhCN } from '../../src-shared/i18n/zh-CN';
import { call, startServices } from './helpers/studio-fixture';

const services = await startServices();
const update = (libraryDir: string) => services.dispatch('settings.update', { libraryDir });

describe('the library folder setting', () => {
  it('refuses system locations, files and links into them, and keeps the folder it had', async () => {
    const before = (await call(services, 'settings.get')).libraryDir;
    const file = join(services.dataDir, 'not-a-folder.txt');
    writeFileSync(file, 'x');
    const link = join(services.dataDir, 'sneaky');
    symlinkSync('/proc/self', link);
    for (const dir of ['/proc', '/proc/self/cwd', '/sys/kernel', '/dev', '/dev/shm/library', file, link]) {
      const answer = await update(dir);
      expect(answer.ok, dir).toBe(false);
      if (!answer.ok) {
        expect(answer.error.code, dir).toBe('STUDIO_LIBRARY_DIR_INVALID');
        expect(answer.error.message).not.toMatch(/\n\s+at /);
      }
    }
    // A name longer than any file system takes: refused in plain words, not with ENAMETOOLONG.
    for (const dir of ['n'.repeat(300), `/tmp/${'n'.repeat(300)}/Library`]) {
      const answer = await update(dir);
      expect(answer, dir).toMatchObject({ ok: false, error: { code: 'STUDIO_LIBRARY_DIR_INVALID' } });
      if (!answer.ok) expect(answer.error.message).not.toMatch(/ENAMETOOLONG|stat '/);
    }
    // Not a path at all: refused as invalid input, not a crash.
    expect(await update('/tmp/a\0b')).toMatchObject({ ok: false, error: { code: 'STUDIO_INVALID_INPUT' } });
    expect((await call(services, 'settings.get')).libraryDir).toBe(before);
    expect(en.errors.STUDIO_LIBRARY_DIR_INVALID).toMatch(/library folder/);
    expect(zhCN.errors.STUDIO_LIBRARY_DIR_INVALID).toMatch(/图库文件夹/);
  });

  it('takes a relative folder from the data folder, not the working folder', async () => {
    const settings = await call(services, 'settings.update', { libraryDir: 'My Library' });
    expect(settings.libraryDir).toBe(join(services.dataDir, 'My Library'));
    expect(settings.libraryDir.startsWith(process.cwd())).toBe(false);
    const nested = join(services.dataDir, 'elsewhere', 'Library');
    mkdirSync(nested, { recursive: true });
    expect((await call(services, 'settings.update', { libraryDir: nested })).libraryDir).toBe(nested);
  });
});
