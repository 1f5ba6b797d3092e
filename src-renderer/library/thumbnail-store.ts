import { create } from 'zustand';
import type { StudioApi } from '../../src-shared/studio-api';

interface ThumbState {
  urls: Record<string, string>;
  /** Asks main for the thumbnails of these ids that are not loaded or on their way yet. */
  want(studio: StudioApi, ids: string[]): void;
}

const pending = new Set<string>();
let queued: string[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

/** Thumbnails the gallery has seen, fetched in small batches as cells scroll into view. */
export const useThumbnails = create<ThumbState>((set, get) => ({
  urls: {},
  want(studio, ids) {
    const missing = ids.filter((id) => !get().urls[id] && !pending.has(id));
    if (!missing.length) return;
    for (const id of missing) pending.add(id);
    queued.push(...missing);
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const batch = queued;
      queued = [];
      for (let i = 0; i < batch.length; i += 60) {
        const chunk = batch.slice(i, i + 60);
        void studio
          .call('library.thumbnails', { ids: chunk })
          .then((urls) => set((s) => ({ urls: { ...s.urls, ...urls } })))
          .finally(() => chunk.forEach((id) => pending.delete(id)));
      }
    }, 16);
  },
}));
