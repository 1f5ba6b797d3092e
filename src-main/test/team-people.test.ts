import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, startServices } from './helpers/studio-fixture';

describe('people on a shared library', () => {
  it("names a person after the system's user until they change it, and refuses an empty name in words", async () => {
    const studio = await startServices();
    const settings = await call(studio, 'settings.get');
    expect(settings.personId).toMatch(/^[0-9a-f]{12}$/);
    expect(settings.personName).toBe(userInfo().username);
    expect((await call(studio, 'settings.update', { personName: '  Ana   Lima ' })).personName).toBe(
      'Ana Lima',
    );
    const refused = await studio.dispatch('settings.update', { personName: '   ' });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.message).toMatch(/personName: should be at least 1 character/);
    // The id is the install's: a settings change cannot set it.
    const forged = await studio.dispatch('settings.update', { personId: 'ffffffffffff' });
    expect(forged.ok).toBe(false);
    expect((await call(studio, 'people.me')).id).toBe(settings.personId);
  });

  it('tells apart two studios with one person id (a copied data folder), in words, and keeps their marks apart', async () => {
    const shared = mkdtempSync(join(tmpdir(), 'shared-library-'));
    const first = await startServices();
    await call(first, 'settings.update', { libraryDir: shared, personName: 'Ana' });
    const original = (await call(first, 'settings.get')).personId;
    await first.presence.tick();

    // Ana's settings copied into another data folder (a new laptop set up from the old one's files).
    const copyDir = mkdtempSync(join(tmpdir(), 'studio-copy-'));
    copyFileSync(join(first.dataDir, 'settings.json'), join(copyDir, 'settings.json'));
    const copy = await startServices({ dataDir: copyDir });
    expect((await call(copy, 'settings.get')).libraryDir).toBe(shared);
    // Each sees the other written to between two of its own looks: both are in use.
    await copy.presence.tick();
    await first.presence.tick();
    await copy.presence.tick();
    await first.presence.tick();

    const told = await call(copy, 'people.me');
    expect(told.id).not.toBe(original);
    expect(told.name).toBe('Ana');
    expect(told.notice).toMatchObject({ code: 'PERSON_ID_COPIED', host: hostname(), previousId: original });
    // The first studio claimed the id first: it keeps it, and says nothing.
    expect(await call(first, 'people.me')).toMatchObject({ id: original, notice: null });
    expect(readdirSync(join(shared, '.studio', 'people')).sort()).toEqual([original, told.id].sort());

    // A new look changes nothing more: each has its own id now.
    await copy.presence.tick();
    expect((await call(copy, 'people.me')).id).toBe(told.id);
  });
});
