import type { Draft, DraftItem, ReferenceImage } from '../../src-shared/draft';
import type { PromptParts } from '../../src-shared/prompt-parts';
import { nextRowIds, rowsFromPrompts } from './compose-store';

/** Edits of a draft, pure, so the grid, the keyboard and undo all share them. */
export const draftActions = {
  setItem:
    (index: number, patch: Partial<DraftItem>) =>
    (d: Draft): Draft => ({
      ...d,
      items: d.items.map((item, i) => (i === index ? { ...item, ...patch } : item)),
    }),
  /** New rows of these prompts at `at`; `parts`, where given, are each prompt's template and values. */
  insertPrompts:
    (at: number, prompts: string[], parts?: (PromptParts | undefined)[]) =>
    (d: Draft): Draft => {
      const rows = rowsFromPrompts(d.items, prompts).map((row, i) =>
        parts?.[i] ? { ...row, parts: parts[i] } : row,
      );
      return { ...d, items: [...d.items.slice(0, at), ...rows, ...d.items.slice(at)] };
    },
  /** Parts found for rows typed by hand ("Find parts"), by row index. */
  setParts:
    (parts: ReadonlyMap<number, PromptParts>) =>
    (d: Draft): Draft => ({
      ...d,
      items: d.items.map((item, i) => (parts.has(i) ? { ...item, parts: parts.get(i)! } : item)),
    }),
  /** Rows from an import: their own ids where free, fresh ones otherwise. */
  appendRows:
    (rows: (Omit<DraftItem, 'customId'> & { customId?: string })[]) =>
    (d: Draft): Draft => {
      const ids = nextRowIds(d.items, rows.length);
      const taken = new Set(d.items.map((i) => i.customId));
      const added = rows.map((r, i): DraftItem => {
        const own = r.customId?.trim();
        const customId = own && !taken.has(own) ? own : ids[i]!;
        taken.add(customId);
        return { ...r, customId };
      });
      return { ...d, items: [...d.items, ...added] };
    },
  removeRow:
    (index: number) =>
    (d: Draft): Draft => ({ ...d, items: d.items.filter((_, i) => i !== index) }),
  duplicateRow:
    (index: number) =>
    (d: Draft): Draft => {
      const source = d.items[index];
      if (!source) return d;
      const [id] = nextRowIds(d.items, 1);
      return {
        ...d,
        items: [...d.items.slice(0, index + 1), { ...source, customId: id! }, ...d.items.slice(index + 1)],
      };
    },
  moveRow:
    (index: number, by: number) =>
    (d: Draft): Draft => {
      const to = index + by;
      if (to < 0 || to >= d.items.length) return d;
      const items = [...d.items];
      const [row] = items.splice(index, 1);
      items.splice(to, 0, row!);
      return { ...d, items };
    },
  /** Adds references to one row, or to every row when `row` is undefined. */
  addReferences:
    (refs: ReferenceImage[], row?: number) =>
    (d: Draft): Draft => {
      const known = new Set(d.references.map((r) => r.id));
      const references = [...d.references, ...refs.filter((r) => !known.has(r.id))];
      const ids = refs.map((r) => r.id);
      if (row === undefined)
        return { ...d, references, sharedReferenceIds: [...new Set([...d.sharedReferenceIds, ...ids])] };
      return {
        ...d,
        references,
        items: d.items.map((item, i) =>
          i === row ? { ...item, referenceIds: [...new Set([...item.referenceIds, ...ids])] } : item,
        ),
      };
    },
  removeReference:
    (id: string, row?: number) =>
    (d: Draft): Draft => {
      const next =
        row === undefined
          ? { ...d, sharedReferenceIds: d.sharedReferenceIds.filter((r) => r !== id) }
          : {
              ...d,
              items: d.items.map((item, i) =>
                i === row ? { ...item, referenceIds: item.referenceIds.filter((r) => r !== id) } : item,
              ),
            };
      const used = new Set([...next.sharedReferenceIds, ...next.items.flatMap((i) => i.referenceIds)]);
      return { ...next, references: next.references.filter((r) => used.has(r.id)) };
    },
  replaceReference:
    (oldId: string, ref: ReferenceImage) =>
    (d: Draft): Draft => ({
      ...d,
      references: [...d.references.filter((r) => r.id !== oldId && r.id !== ref.id), ref],
      sharedReferenceIds: d.sharedReferenceIds.map((r) => (r === oldId ? ref.id : r)),
      items: d.items.map((item) => ({
        ...item,
        referenceIds: item.referenceIds.map((r) => (r === oldId ? ref.id : r)),
      })),
    }),
};
