import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

export const CHANGES_FORMAT = 'batch-image-studio.changes/1';
/** How many changed names a journal keeps: more than any reader misses between two looks. */
export const JOURNAL_KEEP = 200;

/** `<library>/.studio/changes/`: one journal per studio, each written by its studio only. */
export function changesDir(root: string): string {
  return join(root, '.studio', 'changes');
}

export function journalFile(root: string, studioId: string): string {
  return join(changesDir(root), `${studioId}.json`);
}

const entrySchema = z.union([
  z.object({ seq: z.number().int(), folder: z.string().min(1) }),
  z.object({ seq: z.number().int(), boards: z.literal(true) }),
]);
export type JournalEntry = z.infer<typeof entrySchema>;

/**
 * A studio's change journal. `seq` goes up by one at every change; `entries` name the folders
 * (or the boards) changed lately, each once, newest last; every change after `since` is named
 * there (older names were dropped to keep the file small). A reader that last saw a seq below
 * `since` may have missed a name, and looks at every folder instead.
 */
const journalSchema = z.object({
  format: z.literal(CHANGES_FORMAT),
  studio: z.string(),
  seq: z.number().int(),
  since: z.number().int().default(0),
  entries: z.array(entrySchema).catch([]),
});
export type Journal = z.infer<typeof journalSchema>;

/** A journal as written, or undefined when it is missing, damaged or from a newer version. */
export async function readJournal(file: string): Promise<Journal | undefined> {
  try {
    const parsed = journalSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    // Missing or half-written by hand: the slow sweep still finds what changed.
    return undefined;
  }
}

/** The journal with one more change: its name moves to the end with the new seq, the oldest drop off. */
export function withChange(journal: Journal, change: { folder: string } | { boards: true }): Journal {
  const seq = journal.seq + 1;
  const same = (e: JournalEntry) =>
    'folder' in change ? 'folder' in e && e.folder === change.folder : 'boards' in e;
  const entries = [...journal.entries.filter((e) => !same(e)), { seq, ...change }];
  const dropped = entries.splice(0, Math.max(0, entries.length - JOURNAL_KEEP));
  const since = dropped.reduce((max, e) => Math.max(max, e.seq), journal.since);
  return { ...journal, seq, since, entries };
}
