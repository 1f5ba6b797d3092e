import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCatalog } from './helpers/test-catalog';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, submitAndDownload } from './helpers/studio-fixture';

const services = await startServices();

async function downloadedBatch(name: string, prompts: string[]): Promise<string> {
  const done = await submitAndDownload(services, promptsDraft(`truth-${Date.now()}`, name, prompts, 'row-'));
  return join((await call(services, 'settings.get')).libraryDir, done.download.folder);
}

describe('the library says what is wrong, in words', () => {
  it('names the damaged file instead of quoting the parser, and a damaged review.json costs only the marks', async () => {
    const folder = await downloadedBatch('Autumn mugs', ['one', 'two']);
    const root = mkdtempSync(join(tmpdir(), 'library-truth-'));
    cpSync(folder, join(root, 'not json'), { recursive: true });
    writeFileSync(join(root, 'not json', 'batch.json'), '{batch: {"id": 1}}');
    cpSync(folder, join(root, 'not a batch'), { recursive: true });
    writeFileSync(join(root, 'not a batch', 'batch.json'), '{"hello": "world"}');
    cpSync(folder, join(root, 'bad review'), { recursive: true });
    writeFileSync(join(root, 'bad review', 'review.json'), '{"images": {');

    const catalog = testCatalog(() => root);
    const [result, { problems }] = [await catalog.query(), await catalog.overview()];
    const problem = (folderName: string) => problems.find((p) => p.folder === folderName)!;
    expect(problem('not json')).toMatchObject({
      reason: 'FILE_NOT_JSON',
      file: 'batch.json',
      message: 'batch.json is damaged (not valid JSON)',
    });
    expect(problem('not a batch')).toMatchObject({ reason: 'FILE_NOT_BATCH', file: 'batch.json' });
    expect(problem('bad review')).toMatchObject({ reason: 'REVIEW_DAMAGED', file: 'review.json' });
    for (const p of problems) expect(p.message).not.toMatch(/position|Expected|Unexpected|token/i);
    // The images of the folder whose review.json is damaged are still in the gallery.
    expect(result.total).toBe(2);
  });

  it('searches prompts, batch names and ids, as the search box says', async () => {
    await downloadedBatch('Harbour posters', ['A lighthouse at dusk', 'Gulls over the pier']);
    const found = (search: string) => call(services, 'library.query', { search });
    expect((await found('lighthouse')).items.map((i: any) => i.prompt)).toEqual(['A lighthouse at dusk']);
    expect((await found('harbour')).total).toBe(2);
    expect((await found('row-2')).items.map((i: any) => i.prompt)).toContain('Gulls over the pier');
  });
});
