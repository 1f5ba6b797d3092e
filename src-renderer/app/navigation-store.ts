import { create } from 'zustand';

export const SCREENS = ['compose', 'batches', 'library', 'realtime', 'kb', 'settings'] as const;
export type Screen = (typeof SCREENS)[number];

function fromHash(): { screen: Screen; param?: string } {
  const [name, ...rest] = window.location.hash.replace(/^#\/?/, '').split('/');
  const screen = (SCREENS as readonly string[]).includes(name ?? '') ? (name as Screen) : 'compose';
  const param = rest.length ? decodeURIComponent(rest.join('/')) : undefined;
  return { screen, param };
}

interface NavigationState {
  screen: Screen;
  /** A screen's own target, such as the batch the Batches screen shows. */
  param?: string;
  go(screen: Screen, param?: string): void;
}

/** UI-only state: which screen shows. Kept in the URL fragment so reloads and links land right. */
export const useNavigation = create<NavigationState>((set) => {
  window.addEventListener('hashchange', () => set(fromHash()));
  return {
    ...fromHash(),
    go(screen, param) {
      const hash = `#/${screen}${param ? `/${encodeURIComponent(param)}` : ''}`;
      if (window.location.hash !== hash) window.location.hash = hash;
      set({ screen, param });
    },
  };
});
