import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testCatalog } from './helpers/test-catalog';
import { batchFolder } from './helpers/batch-folders';

/** Perceptual hashes: two a bit apart (near-identical), and two far from them and each other. */
const NEAR_A = '0000000000000000';
const NEAR_B = '0000000000000001';
const FAR = 'ffffffffffffffff';
const FAR_TOO = '00000000ffffffff';

describe('near-duplicate stacks', () => {
  it("group a run's models together and a batch on its own, and list one stack's images", async () => {
    const root = mkdtempSync(join(tmpdir(), 'library-stacks-'));
    batchFolder(root, 'run m1', [NEAR_A, FAR], 'run-1');
    batchFolder(root, 'run m2', [NEAR_B, FAR_TOO], 'run-1');
    // The same pictures in a batch of no run: a stack of its own, never joined to the run's.
    batchFolder(root, 'alone', [NEAR_A, NEAR_B]);
    const catalog = testCatalog(() => root);

    const { items } = await catalog.query({});
    const stackOf = Object.fromEntries(items.map((i) => [i.id, i.stack]));
    const runStack = { leader: 'run m1/images/row-1.png', size: 2, level: 'near' };
    expect(stackOf['run m1/images/row-1.png']).toEqual(runStack);
    expect(stackOf['run m2/images/row-1.png']).toEqual(runStack);
    expect(stackOf['alone/images/row-2.png']).toEqual({
      leader: 'alone/images/row-1.png',
      size: 2,
      level: 'near',
    });
    expect(stackOf['run m1/images/row-2.png']).toBeUndefined();

    // What "Keep this one, reject the rest" lists: the stack's images, and only them.
    const members = async (leader: string) => (await catalog.ids({ stackOf: leader })).sort();
    expect(await members('run m1/images/row-1.png')).toEqual([
      'run m1/images/row-1.png',
      'run m2/images/row-1.png',
    ]);
    expect(await members('alone/images/row-1.png')).toEqual([
      'alone/images/row-1.png',
      'alone/images/row-2.png',
    ]);
    // One a stack: the run's stack, the batch's, and the two images alone.
    expect((await catalog.query({ stacks: 'one' })).total).toBe(4);
    catalog.close();
  });

  it('take a batch deleted from disk out of the stacks it was in', async () => {
    const root = mkdtempSync(join(tmpdir(), 'library-stacks-'));
    batchFolder(root, 'run m1', [NEAR_A, FAR], 'run-1');
    batchFolder(root, 'run m2', [NEAR_B, FAR_TOO], 'run-1');
    const catalog = testCatalog(() => root);
    const stackOf = async (id: string) => (await catalog.query({})).items.find((i) => i.id === id)?.stack;
    expect(await stackOf('run m2/images/row-1.png')).toMatchObject({ size: 2 });

    // Deleted in the file manager: its image was the stack's leader.
    rmSync(join(root, 'run m1'), { recursive: true });
    await catalog.sync();
    // Alone now: no badge promising a second picture, nor a leader that is gone.
    expect(await stackOf('run m2/images/row-1.png')).toBeUndefined();
    expect((await catalog.query({ stacks: 'one' })).total).toBe(2);
    catalog.close();
  });
});
