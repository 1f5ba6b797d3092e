import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { z } from 'zod';
import { writeFileAtomicSync } from './atomic-file';
import { logCaughtUnlessMissing } from '../log/studio-log';

/**
 * The longest id kept as its own file name: 255 bytes less ".json" and the atomic write's temporary
 * suffix (".", 8 hex digits). Every name that could be written before keeps its file.
 */
const MAX_NAME = 240;

/**
 * Records kept one JSON file each in a folder, written atomically and read back through their
 * schema: a damaged file is skipped, never fatal.
 */
export class JsonFolderStore<S extends z.ZodTypeAny> {
  constructor(
    private dir: string,
    private schema: S,
  ) {}

  private file(id: string): string {
    const name = id.replace(/[^\w-]/g, '_');
    // A file name has at most 255 bytes: a longer id (a script's, say) is named by its hash, so its
    // record is looked up, or found missing, instead of failing with ENAMETOOLONG.
    if (name.length <= MAX_NAME) return join(this.dir, `${name}.json`);
    return join(this.dir, `${name.slice(0, 64)}-${createHash('sha256').update(id).digest('hex')}.json`);
  }

  put(id: string, record: z.output<S>): void {
    writeFileAtomicSync(this.file(id), JSON.stringify(record));
  }

  get(id: string): z.output<S> | undefined {
    try {
      const parsed = this.schema.safeParse(JSON.parse(readFileSync(this.file(id), 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch (err) {
      logCaughtUnlessMissing(`record ${id} read`, err);
      return undefined;
    }
  }

  list(): z.output<S>[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch (err) {
      logCaughtUnlessMissing('record folder listing', err);
      return [];
    }
    return names
      .map((n) => this.get(n.slice(0, -'.json'.length)))
      .filter((r): r is z.output<S> => r !== undefined);
  }

  remove(id: string): void {
    rmSync(this.file(id), { force: true });
  }
}
