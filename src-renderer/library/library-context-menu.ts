import { create } from 'zustand';

/**
 * Where the right-click menu on an image is open, if it is: the gallery opens it, the toolbar
 * (which holds the actions) draws it.
 */
export const useLibraryContextMenu = create<{ at?: { x: number; y: number } }>(() => ({}));
