import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadSharp } from '../lazy-imports';
import type { ReferenceImage } from '../../../src-shared/draft';
import { StudioError } from '../../../src-shared/studio-error';
import { writeFileAtomic } from '../storage/atomic-file';
import { EXTENSION_OF_MIME, sniffImageType } from '../storage/file-names';
import { logCaught } from '../log/studio-log';

/**
 * Reference images, kept by content so a draft, a retry and the library all point at the same
 * bytes. Formats the gateway does not take are converted to PNG when they can be read.
 */
export class ReferenceStore {
  constructor(private dir: string) {}

  private path(id: string, mime: string): string {
    return join(this.dir, `${id}.${EXTENSION_OF_MIME[mime] ?? 'bin'}`);
  }

  async add(name: string, input: Buffer): Promise<ReferenceImage & { converted: boolean }> {
    let data = input;
    let mime = sniffImageType(input.subarray(0, 16));
    let converted = false;
    if (!mime) {
      try {
        const sharp = await loadSharp();
        data = await sharp(input, { limitInputPixels: 268_402_689 }).png().toBuffer();
      } catch {
        throw new StudioError({
          code: 'STUDIO_REFERENCE_UNREADABLE',
          message: `${name} is not an image the studio can read.`,
        });
      }
      mime = 'image/png';
      converted = true;
    }
    const sharp = await loadSharp();
    const meta = await sharp(data)
      .metadata()
      .catch((err: unknown) => logCaught(`reference ${name} metadata`, err));
    if (!meta?.width)
      throw new StudioError({
        code: 'STUDIO_REFERENCE_UNREADABLE',
        message: `${name} is not an image the studio can read.`,
      });
    const id = createHash('sha256').update(data).digest('hex');
    const file = this.path(id, mime);
    if (!existsSync(file)) await writeFileAtomic(file, data);
    return {
      id,
      name: converted ? name.replace(/\.[^.]+$/, '') + '.png' : name,
      mime,
      bytes: data.length,
      width: meta.width,
      height: meta.height,
      converted,
    };
  }

  has(ref: Pick<ReferenceImage, 'id' | 'mime'>): boolean {
    return existsSync(this.path(ref.id, ref.mime));
  }

  async read(ref: Pick<ReferenceImage, 'id' | 'mime' | 'name'>): Promise<Buffer> {
    try {
      return await readFile(this.path(ref.id, ref.mime));
    } catch {
      throw new StudioError({
        code: 'STUDIO_REFERENCE_MISSING',
        message: `The reference image ${ref.name} is no longer on this computer.`,
      });
    }
  }

  /** The stored file of a reference by its content id, for the image routes; undefined if absent. */
  fileOf(id: string): string | undefined {
    if (!/^[0-9a-f]{64}$/.test(id)) return undefined;
    return Object.keys(EXTENSION_OF_MIME)
      .map((mime) => this.path(id, mime))
      .find((file) => existsSync(file));
  }

  /** A smaller copy that fits the gateway's per-image limit, for oversize images the user chose to shrink. */
  async downscale(ref: ReferenceImage, maxBytes: number): Promise<ReferenceImage & { converted: boolean }> {
    const data = await this.read(ref);
    let width = ref.width ?? 4096;
    for (;;) {
      width = Math.max(64, Math.floor(width * 0.75));
      const sharp = await loadSharp();
      const out = await sharp(data)
        .resize({ width, withoutEnlargement: true })
        .jpeg({ quality: 88 })
        .toBuffer();
      if (out.length <= maxBytes || width === 64)
        return this.add(ref.name.replace(/\.[^.]+$/, '') + '.jpg', out);
    }
  }
}
