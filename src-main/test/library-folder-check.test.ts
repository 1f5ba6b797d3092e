import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCatalog } from './helpers/test-catalog';
import { batchFolder } from './helpers/batch-folders';

describe("the Library's check of every folder", () => {
  it('holds no list back, and what it finds reaches the lists once it is done', async () => {
    const root = mkdtempSync(join(tmpdir(), 'library-check-'));
    batchFolder(root, 'first', ['0000000000000000']);
    const catalog = testCatalog(() => root);
    expect((await catalog.query({})).total).toBe(1);

    // Batches the catalog has not seen: copied in from another machine, say.
    for (const name of ['copied 1', 'copied 2', 'copied 3']) batchFolder(root, name, ['ffffffffffffffff']);
    const done: string[] = [];
    // Opening the Library asks for both: the overview checks every folder and reads the new ones.
    const overview = catalog.overview().then((o) => (done.push('overview'), o));
    const list = catalog.query({}).then((l) => (done.push('list'), l));
    await Promise.all([overview, list]);
    // The list answered with what the catalog knew, before the check was done with the folders.
    expect(done).toEqual(['list', 'overview']);
    expect((await list).total).toBe(1);
    expect((await overview).images).toBe(4);
    // Asked again (as the window does when it hears the folders changed), it has them.
    expect((await catalog.query({})).total).toBe(4);
    catalog.close();
  });
});
