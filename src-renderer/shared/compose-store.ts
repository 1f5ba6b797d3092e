import { create } from 'zustand';
import type { Draft, DraftItem } from '../../src-shared/draft';

const HISTORY = 200;

interface ComposeState {
  draft: Draft | null;
  past: Draft[];
  future: Draft[];
  /** The last change's coalescing key: keystrokes in one cell make one undo step. */
  lastKey?: string;
  lastAt: number;
  load(draft: Draft): void;
  change(update: (draft: Draft) => Draft, coalesceKey?: string): void;
  /** A change the studio makes by itself (the gateway's first model): not a step of the user's undo. */
  adjust(update: (draft: Draft) => Draft): void;
  undo(): void;
  redo(): void;
}

/** The draft being edited and its undo history: UI state, saved to main as it changes. */
export const useCompose = create<ComposeState>((set, get) => ({
  draft: null,
  past: [],
  future: [],
  lastAt: 0,
  load: (draft) => set({ draft, past: [], future: [], lastKey: undefined }),
  change(update, coalesceKey) {
    const { draft, past, lastKey, lastAt } = get();
    if (!draft) return;
    const next = update(draft);
    if (next === draft) return;
    const now = Date.now();
    const coalesce = coalesceKey !== undefined && coalesceKey === lastKey && now - lastAt < 1500;
    set({
      draft: next,
      past: coalesce ? past : [...past.slice(-HISTORY + 1), draft],
      future: [],
      lastKey: coalesceKey,
      lastAt: now,
    });
  },
  adjust(update) {
    const { draft } = get();
    if (draft) set({ draft: update(draft) });
  },
  undo() {
    const { draft, past, future } = get();
    if (!draft || past.length === 0) return;
    set({
      draft: past[past.length - 1]!,
      past: past.slice(0, -1),
      future: [draft, ...future],
      lastKey: undefined,
    });
  },
  redo() {
    const { draft, past, future } = get();
    if (!draft || future.length === 0) return;
    set({ draft: future[0]!, past: [...past, draft], future: future.slice(1), lastKey: undefined });
  },
}));

export function newDraftId(): string {
  return `draft-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export function emptyDraft(model = ''): Draft {
  return {
    id: newDraftId(),
    name: '',
    model,
    items: [],
    sharedReferenceIds: [],
    references: [],
    responseMime: 'image/png',
    updatedAt: Date.now(),
  };
}

/** The next free row id, row-001, row-002…, so every row has one of its own. */
export function nextRowIds(items: DraftItem[], count: number): string[] {
  const taken = new Set(items.map((i) => i.customId));
  const ids: string[] = [];
  for (let n = 1; ids.length < count; n++) {
    const id = `row-${String(n).padStart(3, '0')}`;
    if (!taken.has(id)) ids.push(id);
  }
  return ids;
}

export function rowsFromPrompts(items: DraftItem[], prompts: string[]): DraftItem[] {
  const ids = nextRowIds(items, prompts.length);
  return prompts.map((prompt, i) => ({ customId: ids[i]!, prompt, outputCount: 1, referenceIds: [] }));
}
