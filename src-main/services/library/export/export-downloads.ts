import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { extname, join } from 'node:path';
import { logCaught } from '../../log/studio-log';
import { makeDirSync } from '../../storage/atomic-file';

export interface PreparedExport {
  file: string;
  name: string;
}

/** A prepared export not fetched within this time is deleted. */
const KEEP_MS = 15 * 60_000;
const ID = /^[\w-]{22}$/;

/**
 * Browser mode has no save dialog: an export is written here first and fetched once by the page
 * from the web host's download route (never as base64 in JSON), then deleted. Ids are random, so
 * one cannot be guessed, and the route needs the run's token anyway.
 */
export class ExportDownloads {
  private readonly ready = new Map<string, PreparedExport & { expires: number }>();

  constructor(private readonly dir: string) {
    // Exports prepared before a restart can no longer be fetched.
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      logCaught('export downloads cleanup', err);
    }
  }

  /** Writes an export with `write` and answers the id it can be fetched by. */
  async prepare<T>(name: string, write: (file: string) => Promise<T>): Promise<{ id: string; result: T }> {
    this.prune();
    makeDirSync(this.dir);
    const id = randomBytes(16).toString('base64url');
    const file = join(this.dir, `${id}${extname(name)}`);
    const result = await write(file);
    this.ready.set(id, { file, name, expires: Date.now() + KEEP_MS });
    return { id, result };
  }

  /** Hands a prepared export over once; the caller deletes the file with `finished` when sent. */
  take(id: string): PreparedExport | undefined {
    if (!ID.test(id)) return undefined;
    const found = this.ready.get(id);
    this.ready.delete(id);
    return found && { file: found.file, name: found.name };
  }

  finished(prepared: PreparedExport): void {
    try {
      rmSync(prepared.file, { force: true });
    } catch (err) {
      logCaught('export download cleanup', err);
    }
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, prepared] of this.ready) {
      if (prepared.expires > now) continue;
      this.ready.delete(id);
      this.finished(prepared);
    }
  }
}
