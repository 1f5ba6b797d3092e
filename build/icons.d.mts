export const ICON_SOURCE: string;
export const ICONS_DIR: string;
export const PNG_SIZES: number[];
export function makeIcons(
  outDir?: string,
): Promise<{ pngDir: string; png: string; ico: string; icns: string }>;
