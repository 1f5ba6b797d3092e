import { draftSchema, type Draft } from '../../../src-shared/draft';
import { JsonFolderStore } from '../storage/json-folder-store';

/** Every draft on disk, one JSON file each, written atomically: a crash never loses a grid. */
export class DraftStore {
  private files: JsonFolderStore<typeof draftSchema>;

  constructor(dir: string) {
    this.files = new JsonFolderStore(dir, draftSchema);
  }

  save(draft: Draft): Draft {
    const saved = { ...draft, updatedAt: Date.now() };
    this.files.put(draft.id, saved);
    return saved;
  }

  get(id: string): Draft | undefined {
    return this.files.get(id);
  }

  /** Newest first. */
  list(): Draft[] {
    return this.files.list().sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
  }

  delete(id: string): void {
    this.files.remove(id);
  }
}
