import { describe, expect, it } from 'vitest';
import type { Draft } from '../../src-shared/draft';
import { splitDraft } from '../../src-shared/draft-split';
import type { StudioApi } from '../../src-shared/studio-api';
import { call, startServices, type TestServices } from '../../src-main/test/helpers/studio-fixture';
import { emptyDraft } from '../shared/compose-store';
import { DraftWriter } from '../compose/draft-writer';

/**
 * The studio's real services, reached as the window reaches them, except that the first draft save
 * is held on the wire until `deliver()`: a request overtaken by the ones after it, as parallel HTTP
 * requests in browser mode can be. `busy()` tells whether any other call is still under way.
 */
function slowFirstSave(services: TestServices) {
  let deliver = () => undefined as void;
  const held = new Promise<void>((resolve) => (deliver = resolve));
  let first = true;
  let others = 0;
  const studio: Pick<StudioApi, 'call'> = {
    call: (async (method: string, input: unknown) => {
      if (method === 'drafts.save' && first) {
        first = false;
        await held;
        return call(services, method, input);
      }
      others++;
      try {
        return await call(services, method, input);
      } finally {
        others--;
      }
    }) as StudioApi['call'],
  };
  return { studio, deliver: () => deliver(), busy: () => others > 0 };
}

function draftOver200(): Draft {
  const draft = emptyDraft('imgvendor-3.1-flash-image');
  return {
    ...draft,
    name: 'Big',
    items: Array.from({ length: 101 }, (_, i) => ({
      customId: `big-${i}`,
      prompt: `Big prompt ${i}`,
      outputCount: 2,
      referenceIds: [],
    })),
  };
}

async function draftNames(services: TestServices): Promise<string[]> {
  return ((await call(services, 'drafts.list')) as { name: string }[]).map((d) => d.name).sort();
}

describe('draft writes from the window', () => {
  it('an autosave under way when a split deletes the draft does not bring it back', async () => {
    const services = await startServices();
    const { studio, deliver, busy } = slowFirstSave(services);
    const writer = new DraftWriter(studio);
    const draft = draftOver200();
    const pieces = splitDraft(draft);
    expect(pieces).toHaveLength(2);

    // The autosave's timer fired; its request is slow. Then the split saves the parts and deletes it.
    const autosave = writer.save(draft);
    const split = (async () => {
      for (const piece of pieces) await writer.save(piece);
      await writer.remove(draft.id);
    })();
    // The slow request arrives once nothing else is moving: after the split's own calls, unless the
    // split waits for it.
    do await new Promise((resolve) => setImmediate(resolve));
    while (busy());
    deliver();
    await Promise.all([autosave, split]);
    expect(await draftNames(services)).toEqual(['Big (1/2)', 'Big (2/2)']);
  });

  it('an autosave whose timer fires after the split deleted the draft is dropped', async () => {
    const services = await startServices();
    const writer = new DraftWriter({
      call: ((m: string, i: unknown) => call(services, m, i)) as StudioApi['call'],
    });
    const draft = draftOver200();
    await writer.save(draft);
    for (const piece of splitDraft(draft)) await writer.save(piece);
    await writer.remove(draft.id);
    expect(await writer.save(draft)).toBe(false);
    expect(await draftNames(services)).toEqual(['Big (1/2)', 'Big (2/2)']);
  });
});
