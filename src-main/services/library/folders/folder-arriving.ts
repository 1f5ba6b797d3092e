import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BATCH_FILE } from './batch-json';
import { isSyncTemporary } from './sync-conflicts';

/**
 * A folder lacking files that changed on this disk within this time is still arriving (a copy or
 * a sync under way), not broken. Five minutes: a sync tool moves a batch folder's files a few at
 * a time, and a pause between two of them (a slow peer, a rescan) is seconds to a minute or two.
 */
export const ARRIVING_MS = 5 * 60_000;
/** A folder with a sync tool's temporary files in it is looked at again this often. */
const TEMPORARIES_RECHECK_MS = 60_000;

/**
 * Whether a folder that lacks some of its files is still arriving: a sync tool's temporary files
 * are in it, or its files changed on this disk lately. Answers until when it counts as arriving
 * (it is read again then, and is broken if still lacking), or undefined.
 *
 * "Changed on this disk" is the change time (ctime), not the modification time: sync tools give
 * each file the time it had on the machine it came from, which may be hours old, while the
 * change time is when the file arrived here and cannot be set back.
 */
export async function arrivingUntil(dir: string, now = Date.now()): Promise<number | undefined> {
  const images = join(dir, 'images');
  const [names, imageNames] = await Promise.all([
    readdir(dir).catch(() => [] as string[]),
    readdir(images).catch(() => [] as string[]),
  ]);
  const temporaries = [...names, ...imageNames].some(isSyncTemporary);
  const times = await Promise.all(
    [dir, images, join(dir, BATCH_FILE)].map((path) =>
      stat(path).then(
        (s) => Math.max(s.ctimeMs, s.mtimeMs),
        () => 0,
      ),
    ),
  );
  // A time ahead of this clock (another machine's) counts as now: arriving for the window, no longer.
  const newest = Math.min(Math.max(...times), now);
  const until = Math.max(newest + ARRIVING_MS, temporaries ? now + TEMPORARIES_RECHECK_MS : 0);
  return until > now ? until : undefined;
}

const ARRIVING_MARK = 'arriving:';

/**
 * The signature the catalog keeps for a folder still arriving: its own, with the time it stops
 * counting as arriving. The folder is read again when its files change or that time has come.
 */
export function arrivingSignature(signature: string, until: number): string {
  return `${ARRIVING_MARK}${Math.ceil(until)}|${signature}`;
}

/** Whether a folder the catalog keeps under `known` needs no new reading, its files now being `signature`. */
export function stillCurrent(known: string | undefined, signature: string, now = Date.now()): boolean {
  if (known === undefined || !known.startsWith(ARRIVING_MARK)) return known === signature;
  const bar = known.indexOf('|');
  return Number(known.slice(ARRIVING_MARK.length, bar)) > now && known.slice(bar + 1) === signature;
}
