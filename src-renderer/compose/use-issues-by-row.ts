import { useMemo, useRef } from 'react';
import type { Draft } from '../../src-shared/draft';
import { validateDraft, type DraftIssue } from '../../src-shared/draft-rules';

/** Issues per row, with stable arrays while they do not change, so unchanged rows do not re-render. */
export function useIssuesByRow(draft: Draft | null) {
  const cache = useRef(new Map<string, DraftIssue[]>());
  return useMemo(() => {
    if (!draft) return { report: undefined, byRow: new Map<number, DraftIssue[]>() };
    const report = validateDraft(draft);
    const byRow = new Map<number, DraftIssue[]>();
    for (const row of report.rows) {
      const key = JSON.stringify(row.issues);
      let stable = cache.current.get(key);
      if (!stable) cache.current.set(key, (stable = row.issues));
      byRow.set(row.index, stable);
    }
    return { report, byRow };
  }, [draft]);
}
