import type { Draft } from '../../../src-shared/draft';

/**
 * A draft of one PNG per prompt on the default model, its rows named `${rowPrefix}1`, `${rowPrefix}2`…:
 * what most tests send. Its own file, without vitest, so the runner processes the kill tests start
 * can build it too.
 */
export function promptsDraft(id: string, name: string, prompts: string[], rowPrefix = 'r'): Draft {
  return {
    id,
    name,
    model: 'imgvendor-3.1-flash-image',
    items: prompts.map((prompt, i) => ({
      customId: `${rowPrefix}${i + 1}`,
      prompt,
      outputCount: 1,
      referenceIds: [],
    })),
    sharedReferenceIds: [],
    references: [],
    responseMime: 'image/png',
  };
}
