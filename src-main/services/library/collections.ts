import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { StudioError } from '../../../src-shared/studio-error';
import { logCaughtUnlessMissing } from '../log/studio-log';
import { writeJsonAtomic } from './atomic-file';

export const COLLECTIONS_FILE = 'collections.json';
export const COLLECTIONS_FORMAT = 'batch-image-studio.collections/1';

const fileSchema = z.object({
  collections: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      createdAt: z.number().default(0),
      /** Library ids (`<batch folder>/images/<file>`): relative, so a copied library keeps its boards. */
      images: z.array(z.string()).default([]),
    }),
  ),
});
export type StoredCollection = z.infer<typeof fileSchema>['collections'][number];

const NAME_MAX = 120;

function cleanName(name: string): string {
  const clean = name.replace(/\s+/g, ' ').trim().slice(0, NAME_MAX);
  if (!clean) throw new StudioError({ code: 'STUDIO_BAD_INPUT', message: 'A collection needs a name.' });
  return clean;
}

/**
 * The library's collections (boards), in `collections.json` at the library's root, written
 * atomically and durably: a library folder copied to another machine keeps them, and the catalog
 * reads them for the Library's filter. An image can be in several collections.
 */
export class Collections {
  private writing: Promise<unknown> = Promise.resolve();

  constructor(private root: () => string) {}

  file(): string {
    return join(this.root(), COLLECTIONS_FILE);
  }

  /** What is on disk; a missing file is no collections, a damaged one is reported and treated as none. */
  async read(): Promise<StoredCollection[]> {
    try {
      const parsed = fileSchema.safeParse(JSON.parse(await readFile(this.file(), 'utf8')));
      return parsed.success ? parsed.data.collections : [];
    } catch (err) {
      logCaughtUnlessMissing('collections.json read', err);
      return [];
    }
  }

  /** Changes the file, one change after another so quick edits never lose each other. */
  private change<T>(edit: (list: StoredCollection[]) => T): Promise<T> {
    const run = this.writing.then(async () => {
      const list = await this.read();
      const result = edit(list);
      await writeJsonAtomic(this.file(), { format: COLLECTIONS_FORMAT, collections: list });
      return result;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  private static find(list: StoredCollection[], id: string): StoredCollection {
    const found = list.find((c) => c.id === id);
    if (!found)
      throw new StudioError({
        code: 'STUDIO_COLLECTION_NOT_FOUND',
        message: 'That collection no longer exists.',
      });
    return found;
  }

  create(name: string, images: string[] = []): Promise<StoredCollection> {
    return this.change((list) => {
      const made = {
        id: randomUUID(),
        name: cleanName(name),
        createdAt: Date.now(),
        images: [...new Set(images)],
      };
      list.push(made);
      return made;
    });
  }

  rename(id: string, name: string): Promise<void> {
    return this.change((list) => {
      Collections.find(list, id).name = cleanName(name);
    });
  }

  remove(id: string): Promise<void> {
    return this.change((list) => {
      list.splice(list.indexOf(Collections.find(list, id)), 1);
    });
  }

  /** Adds images (or takes them out); answers how many were not there before (or were there). */
  setImages(id: string, images: string[], present: boolean): Promise<number> {
    return this.change((list) => {
      const collection = Collections.find(list, id);
      const current = new Set(collection.images);
      let changed = 0;
      for (const image of images) {
        if (current.has(image) === present) continue;
        if (present) current.add(image);
        else current.delete(image);
        changed++;
      }
      collection.images = [...current];
      return changed;
    });
  }
}
