import { create } from 'zustand';
import type { StudioApi } from '../../src-shared/studio-api';

interface ThumbState {
  urls: Record<string, string>;
  /** Asks main for the thumbnails of what is on screen now, once scrolling pauses. */
  want(studio: StudioApi, ids: string[]): void;
}

const pending = new Set<string>();
let latest: string[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Thumbnails the gallery has seen. Requests wait a moment and only the cells still on screen are
 * asked for, so a fast scroll through thousands of images does not queue thousands of thumbnails.
 */
export const useThumbnails = create<ThumbState>((set, get) => ({
  urls: {},
  want(studio, ids) {
    latest = ids;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const missing = latest.filter((id) => !get().urls[id] && !pending.has(id));
      for (let i = 0; i < missing.length; i += 48) {
        const chunk = missing.slice(i, i + 48);
        chunk.forEach((id) => pending.add(id));
        void studio
          .call('library.thumbnails', { ids: chunk })
          .then((urls) => set((s) => ({ urls: { ...s.urls, ...urls } })))
          .finally(() => chunk.forEach((id) => pending.delete(id)));
      }
    }, 60);
  },
}));
