import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { draftSchema, type Draft } from '../../../src-shared/draft';
import { writeFileAtomicSync } from '../library/atomic-file';

/** Every draft on disk, one JSON file each, written atomically: a crash never loses a grid. */
export class DraftStore {
  constructor(private dir: string) {}

  private file(id: string): string {
    return join(this.dir, `${id.replace(/[^\w-]/g, '_')}.json`);
  }

  save(draft: Draft): Draft {
    const saved = { ...draft, updatedAt: Date.now() };
    writeFileAtomicSync(this.file(draft.id), JSON.stringify(saved));
    return saved;
  }

  get(id: string): Draft | undefined {
    try {
      const parsed = draftSchema.safeParse(JSON.parse(readFileSync(this.file(id), 'utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Newest first; a damaged file is skipped, never fatal. */
  list(): Draft[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    return names
      .map((n) => this.get(n.slice(0, -5)))
      .filter((d): d is Draft => d !== undefined)
      .sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
  }

  delete(id: string): void {
    rmSync(this.file(id), { force: true });
  }
}
