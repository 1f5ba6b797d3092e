import type { Rectangle } from 'electron';

/** The smallest window the screens are laid out for. */
export const MIN_SIZE = { width: 960, height: 640 };

/** Bounds moved (and shrunk, down to the minimum size) to lie within a display's work area. */
export function clampToArea(bounds: Rectangle, area: Rectangle): Rectangle {
  const width = Math.max(MIN_SIZE.width, Math.min(bounds.width, area.width));
  const height = Math.max(MIN_SIZE.height, Math.min(bounds.height, area.height));
  const x = Math.max(area.x, Math.min(bounds.x, area.x + area.width - width));
  const y = Math.max(area.y, Math.min(bounds.y, area.y + area.height - height));
  return { x, y, width, height };
}
