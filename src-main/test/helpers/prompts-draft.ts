import type { Draft } from '../../../src-shared/draft';

/** The model most tests send to: the sandbox's flash model, priced for batches. */
export const FLASH = 'imgvendor-3.1-flash-image';

/** A row of a test draft: its prompt, or the prompt with what differs from one PNG and no references. */
export type TestRow =
  string | { prompt: string; outputCount?: number; customId?: string; referenceIds?: string[] };

/**
 * A draft of one PNG per prompt on the default model, its rows named `${rowPrefix}1`, `${rowPrefix}2`…
 * (or by `rowPrefix(i)`): what most tests send, unit and e2e alike. Its own file, without vitest, so
 * the runner processes the kill tests start can build it too.
 */
export function promptsDraft(
  id: string,
  name: string,
  prompts: TestRow[],
  rowPrefix: string | ((index: number) => string) = 'r',
): Draft {
  const rowName = (i: number) => (typeof rowPrefix === 'string' ? `${rowPrefix}${i + 1}` : rowPrefix(i));
  return {
    id,
    name,
    model: FLASH,
    items: prompts.map((p, i) =>
      typeof p === 'string'
        ? { customId: rowName(i), prompt: p, outputCount: 1, referenceIds: [] }
        : {
            customId: p.customId ?? rowName(i),
            prompt: p.prompt,
            outputCount: p.outputCount ?? 1,
            referenceIds: p.referenceIds ?? [],
          },
    ),
    sharedReferenceIds: [],
    references: [],
    responseMime: 'image/png',
  };
}
