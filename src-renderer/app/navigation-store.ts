import { create } from 'zustand';

export const SCREENS = ['compose', 'batches', 'library', 'realtime', 'kb', 'settings'] as const;
export type Screen = (typeof SCREENS)[number];

function fromHash(): Screen {
  const name = window.location.hash.replace(/^#\/?/, '').split('/')[0];
  return (SCREENS as readonly string[]).includes(name ?? '') ? (name as Screen) : 'compose';
}

interface NavigationState {
  screen: Screen;
  go(screen: Screen): void;
}

/** UI-only state: which screen shows. Kept in the URL fragment so reloads and links land right. */
export const useNavigation = create<NavigationState>((set) => {
  window.addEventListener('hashchange', () => set({ screen: fromHash() }));
  return {
    screen: fromHash(),
    go(screen) {
      if (fromHash() !== screen) window.location.hash = `#/${screen}`;
      set({ screen });
    },
  };
});
