import type { Draft } from '../../src-shared/draft';
import { referencesOfItem } from '../../src-shared/draft-rows';
import { referenceLimitOf } from '../../src-shared/draft-rules';

/**
 * Whether one more reference fits where it would go: every row (`row` undefined) or one row, within
 * the model's references per row. A draft without a model yet is not checked (it has no limit yet).
 */
export function referenceRoom(draft: Draft, row: number | undefined): { fits: boolean; limit: number } {
  const limit = referenceLimitOf(draft.model);
  if (!draft.model) return { fits: true, limit };
  const rows = row === undefined ? draft.items : draft.items.slice(row, row + 1);
  const most = Math.max(
    draft.sharedReferenceIds.length,
    ...rows.map((i) => referencesOfItem(draft, i).length),
  );
  return { fits: most + 1 <= limit, limit };
}
