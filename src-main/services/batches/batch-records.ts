import type { BatchView } from '../../../src-shared/batch-view';
import { StudioError } from '../../../src-shared/studio-error';
import type { ProfileService } from '../profiles/profile-service';
import type { BatchStore } from './batch-store';
import { toView, type TrackedBatch } from './tracked-batch';

function notFound(id: string): StudioError {
  return new StudioError({
    code: 'STUDIO_BATCH_NOT_FOUND',
    message: `The studio does not know batch ${id}.`,
  });
}

/**
 * The batch records of every profile (kept by the store) and the views built from them. The
 * StudioApi's calls name a batch by its id alone: they mean the active profile's.
 */
export class BatchRecords {
  constructor(
    readonly store: BatchStore,
    private profiles: Pick<ProfileService, 'list' | 'active'>,
  ) {}

  profileIds(): string[] {
    return this.profiles.list().map((p) => p.id);
  }

  activeId(): string {
    return this.profiles.active().id;
  }

  find(id: string, profileId = this.activeId()): TrackedBatch {
    const batch = this.store.get(profileId, id);
    if (!batch) throw notFound(id);
    return batch;
  }

  /**
   * The active profile's batches, newest first. A batch removed from the list is left out, except
   * where money is counted: removing a batch does not give back what it cost.
   */
  list({
    includeRemoved = false,
    profileId = this.activeId(),
  }: { includeRemoved?: boolean; profileId?: string } = {}): BatchView[] {
    return this.store
      .list(profileId)
      .filter((b) => includeRemoved || !b.hidden)
      .sort((a, b) => b.remote.created_at - a.remote.created_at || (a.id < b.id ? 1 : -1))
      .map(toView);
  }
}
