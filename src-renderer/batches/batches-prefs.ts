import { create } from 'zustand';
import { persist } from 'zustand/middleware';

interface BatchesPrefs {
  /** The spending chart, folded by default so the list comes first; open once, it stays open. */
  chartOpen: boolean;
  toggleChart(): void;
}

/** How the Batches screen looks for this person: kept across reloads and restarts. */
export const useBatchesPrefs = create<BatchesPrefs>()(
  persist(
    (set) => ({
      chartOpen: false,
      toggleChart: () => set((s) => ({ chartOpen: !s.chartOpen })),
    }),
    { name: 'studio.batchesPrefs', partialize: ({ chartOpen }) => ({ chartOpen }) },
  ),
);
