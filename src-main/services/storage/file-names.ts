const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

/** An image's name before it is made safe: its row's custom_id, and `_2`, `_3`… for the row's further images. */
export function imageStem(customId: string, imageIndex: number): string {
  return imageIndex ? `${customId}_${imageIndex + 1}` : customId;
}

/**
 * A file or folder name safe on Windows, macOS and Linux, made from text the gateway or the user
 * chose (a custom_id, a task name). Never a path: separators and dots-only names cannot survive.
 */
export function safeName(text: string, maxBytes = 120): string {
  let name = text
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
    .replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[. ]+$/, '')
    .replace(/^\.+/, '_');
  if (RESERVED.test(name)) name = `_${name}`;
  while (Buffer.byteLength(name) > maxBytes) name = [...name].slice(0, -1).join('');
  return name || 'item';
}

/** Hands out names that never collide, also on case-insensitive file systems. */
export class UniqueNames {
  private taken = new Set<string>();

  take(base: string, extension: string): string {
    const ext = extension ? `.${extension}` : '';
    let candidate = `${base}${ext}`;
    for (let n = 2; this.taken.has(candidate.toLowerCase()); n++) candidate = `${base}~${n}${ext}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }

  /** A name already in use (a file already in the folder): never handed out. */
  reserve(name: string): void {
    this.taken.add(name.toLowerCase());
  }

  has(name: string): boolean {
    return this.taken.has(name.toLowerCase());
  }
}

/** The file extension of each image type the studio keeps: the one map, for every file it names. */
export const EXTENSION_OF_MIME: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/**
 * A name that sorts by time and is safe on every file system, in UTC to the second:
 * `picks-2026-05-04-13-45-10.zip`.
 */
export function timeStampedName(prefix: string, extension: string, at = new Date()): string {
  return `${prefix}-${at.toISOString().slice(0, 19).replace(/[:T]/g, '-')}.${extension}`;
}

/** The image type by its magic numbers; gateways may label images application/octet-stream. */
export function sniffImageType(head: Uint8Array): 'image/png' | 'image/jpeg' | 'image/webp' | undefined {
  if (head.length >= 8 && head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47)
    return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (
    head.length >= 12 &&
    String.fromCharCode(...head.subarray(0, 4)) === 'RIFF' &&
    String.fromCharCode(...head.subarray(8, 12)) === 'WEBP'
  ) {
    return 'image/webp';
  }
  return undefined;
}
