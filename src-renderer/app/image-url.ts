import { DESKTOP_IMAGE_BASE } from '../../src-shared/image-paths';

/**
 * Where an image path (src-shared/image-paths.ts) loads from: the desktop's privileged
 * `studio-image:` scheme, or browser mode's own origin, where the session cookie set at start
 * authorizes it. An <img> streams and caches it; nothing travels as base64.
 */
export function imageUrl(path: string): string {
  return window.studio ? `${DESKTOP_IMAGE_BASE}${path}` : path;
}
