import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, startServices, submitAndDownload } from './helpers/studio-fixture';

const services = await startServices();

async function batchInLibrary(name: string, items: object[], references: object[] = []) {
  const draft = {
    id: `${name}-${Date.now()}`,
    name,
    model: 'imgvendor-3.1-flash-image',
    items,
    sharedReferenceIds: [],
    references,
    responseMime: 'image/png',
  };
  const batch = await submitAndDownload(services, draft);
  const { items: images } = await call(services, 'library.query', { batchId: batch.id });
  return { batchId: batch.id as string, images: images as { id: string; prompt: string }[] };
}

describe('reusing an image', () => {
  it('a library image used as a reference reaches the gateway byte for byte, and lineage and the recipe follow it', async () => {
    const first = await batchInLibrary('Originals', [
      { customId: 'mug', prompt: 'A ceramic mug on linen', outputCount: 1, referenceIds: [] },
    ]);
    const original = first.images[0]!;
    const originalBytes = readFileSync((await call(services, 'library.detail', { id: original.id })).path);

    const reference = await call(services, 'reuse.reference', { libraryId: original.id });
    expect(reference.sourceImageId).toBe(original.id);
    expect(reference.bytes).toBe(originalBytes.length);
    // From the batch's preview on Batches: the same file, the same reference, the same lineage.
    const fromPreview = await call(services, 'reuse.reference', { batchId: first.batchId, customId: 'mug' });
    expect(fromPreview).toMatchObject({ id: reference.id, sourceImageId: original.id });

    const second = await batchInLibrary(
      'Variations',
      [{ customId: 'again', prompt: 'The same mug, in blue', outputCount: 1, referenceIds: [reference.id] }],
      [reference],
    );
    // What the gateway received is the library file itself, not a re-encoded copy.
    const sent = services.sandbox.inspect().referenceHashes[second.batchId]!;
    expect(Object.values(sent).flat()).toEqual([
      createHash('sha256').update(originalBytes).digest('hex').slice(0, 32),
    ]);

    const made = second.images[0]!;
    expect(
      (await call(services, 'library.lineage', { id: made.id })).ancestors.map((i: any) => i.id),
    ).toEqual([original.id]);
    expect(
      (await call(services, 'library.lineage', { id: original.id })).descendants.map((i: any) => i.id),
    ).toEqual([made.id]);

    // Regenerate: the prompt, the model and the same reference bytes, from the batch folder.
    const recipe = await call(services, 'reuse.recipe', { id: made.id });
    expect(recipe).toMatchObject({
      prompt: 'The same mug, in blue',
      model: 'imgvendor-3.1-flash-image',
      customId: 'again',
      missingReferences: 0,
    });
    expect(recipe.references.map((r: any) => [r.id, r.sourceImageId])).toEqual([[reference.id, original.id]]);
  });
});
