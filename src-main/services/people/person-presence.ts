import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { logCaught, logCaughtUnlessMissing } from '../log/studio-log';
import { makeDir, writeJsonAtomic } from '../storage/atomic-file';

/**
 * This studio among the others on one library: an id of its own (`studioId`, by machine and data
 * folder, so a data folder copied elsewhere is another studio), and a presence file for its person,
 * `.studio/people/<personId>/<studioId>.json`, written only by it and touched once a minute.
 *
 * Two studios with one person id (a data folder copied from a machine still in use) would write
 * one person's marks file from two places. Each studio looks at its person's folder: a presence
 * file of another studio that is alive (written to between two of its looks) with an
 * earlier claim on the id means this one is the copy, and it takes a new id (`onCopied`).
 */
export const PEOPLE_DIR = join('.studio', 'people');
const BEAT_MS = 60_000;

export function studioIdOf(dataDir: string): string {
  return createHash('sha256')
    .update(`${hostname()}\0${resolve(dataDir)}`)
    .digest('hex')
    .slice(0, 12);
}

interface Presence {
  studio: string;
  person: { id: string; name: string };
  host: string;
  /** When this studio claimed the person id (its own clock: compared only as a tie-break of claims). */
  since: number;
  /** Goes up at every write: a change seen between two looks means alive, whatever the clocks. */
  beat: number;
}

export interface PersonPresenceDeps {
  root(): string;
  studioId: string;
  person(): { id: string; name: string };
  since(): number;
  /** Another live studio holds this person id with an earlier claim: this one takes a new id. */
  onCopied(other: { host: string }): void;
}

export class PersonPresence {
  private timer?: NodeJS.Timeout;
  private beat = 0;
  private seen = new Map<string, string>();

  constructor(private deps: PersonPresenceDeps) {}

  start(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), BEAT_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Writes this studio's presence and looks for a copy of its person; never throws. */
  async tick(): Promise<void> {
    try {
      await this.write();
      await this.look();
    } catch (err) {
      // A library that cannot be written (a read-only share) has no presence: marks are refused
      // there anyway, so two writers of one person cannot happen.
      logCaught('person presence', err);
    }
  }

  private folder(): string {
    return join(this.deps.root(), PEOPLE_DIR, this.deps.person().id);
  }

  private async write(): Promise<void> {
    const presence: Presence = {
      studio: this.deps.studioId,
      person: this.deps.person(),
      host: hostname(),
      since: this.deps.since(),
      beat: ++this.beat,
    };
    await makeDir(this.folder());
    await writeJsonAtomic(join(this.folder(), `${this.deps.studioId}.json`), presence);
  }

  private async look(): Promise<void> {
    const folder = this.folder();
    const names = await readdir(folder).catch((err: unknown) => {
      logCaughtUnlessMissing('person presence listing', err);
      return [] as string[];
    });
    const mine = { since: this.deps.since(), studio: this.deps.studioId };
    for (const name of names) {
      if (name === `${mine.studio}.json` || !/^[0-9a-f]{12}\.json$/.test(name)) continue;
      const path = join(folder, name);
      let other: Presence;
      let stamp: string;
      try {
        const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
        other = JSON.parse(text) as Presence;
        stamp = `${info.mtimeMs}:${other.beat}`;
      } catch (err) {
        logCaughtUnlessMissing('person presence read', err);
        continue;
      }
      const before = this.seen.get(name);
      this.seen.set(name, stamp);
      // Alive only if written to between two of this studio's own looks: no clock of another
      // machine is read, and this install's own presence from before a new host name or a moved
      // data folder (written to no more) is never taken for a copy.
      if (before === undefined || before === stamp) continue;
      const earlier =
        typeof other.since === 'number' &&
        (other.since < mine.since || (other.since === mine.since && name < `${mine.studio}.json`));
      if (earlier) {
        this.deps.onCopied({ host: typeof other.host === 'string' ? other.host : '' });
        this.seen.clear();
        // The new id's presence, at once: the other studio sees no copy any more.
        await this.write();
        return;
      }
    }
  }
}
