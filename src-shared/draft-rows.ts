// A draft's rows as the window and main both read them (typed by shape: draft.ts imports this file). No zod here (draft.ts holds the schemas):
// Compose, the first screen, imports these, and zod would be a sixth of its script (issue 36).

export const REFERENCE_MIMES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** The references a row sends: the shared ones first, then its own, without repeats. */
export function referencesOfItem(
  draft: { sharedReferenceIds: readonly string[] },
  item: { referenceIds: readonly string[] },
): string[] {
  return [...new Set([...draft.sharedReferenceIds, ...item.referenceIds])];
}

/** The id a row is sent with: its own, or one made from its position. */
export function customIdOf(item: { customId: string }, index: number): string {
  return item.customId.trim() || `item-${String(index + 1).padStart(3, '0')}`;
}

/** The task ids an item expands to: `id` alone for one output, `id_01`, `id_02`… for more. */
export function expandedIds(customId: string, outputCount: number): string[] {
  if (outputCount <= 1) return [customId];
  return Array.from({ length: outputCount }, (_, n) => `${customId}_${String(n + 1).padStart(2, '0')}`);
}

/**
 * Which draft row and output a gateway task id belongs to. Gateways may or may not suffix a single
 * output, so both `id` and `id_01` find row `id`.
 */
export function rowOfTask(
  draft: { items: readonly { customId: string }[] },
  taskId: string,
): { index: number; output: number } | undefined {
  const ids = draft.items.map((item, i) => customIdOf(item, i));
  const exact = ids.indexOf(taskId);
  if (exact >= 0) return { index: exact, output: 0 };
  const match = /^(.*)_(\d{2,})$/.exec(taskId);
  if (!match) return undefined;
  const index = ids.indexOf(match[1]!);
  return index >= 0 ? { index, output: Number(match[2]) - 1 } : undefined;
}
