import { create } from 'zustand';
import { RUN_MAX_MODELS } from '../../src-shared/batch-run';

interface RunModelsState {
  /** Models the draft is sent to besides its own `draft.model`: UI state, not part of the draft. */
  extra: string[];
  toggle(model: string): void;
  clear(): void;
}

/**
 * The other models of a run. Kept out of the Draft so a saved draft stays one model's order; the
 * draft's own model always comes first, and the run never grows past the contract's limit.
 */
export const useRunModels = create<RunModelsState>((set) => ({
  extra: [],
  toggle: (model) =>
    set(({ extra }) => ({
      extra: extra.includes(model)
        ? extra.filter((m) => m !== model)
        : extra.length < RUN_MAX_MODELS - 1
          ? [...extra, model]
          : extra,
    })),
  clear: () => set({ extra: [] }),
}));

/** Every model a submit sends to: the draft's own first, then the others, each once. */
export function runModelsOf(primary: string, extra: readonly string[]): string[] {
  return [...new Set([primary, ...extra].filter(Boolean))];
}

/** A run's id, made once per click: the same id sent again creates nothing new at main. */
export function newRunId(): string {
  return `run-${crypto.randomUUID()}`;
}
