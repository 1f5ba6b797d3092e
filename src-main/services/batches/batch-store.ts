import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '../storage/atomic-file';
import { safeName } from '../storage/file-names';
import { trackedBatchSchema, type TrackedBatch } from './tracked-batch';
import { logCaughtUnlessMissing } from '../log/studio-log';

const fileSchema = z.object({ version: z.literal(1), batches: z.array(z.unknown()) });

/**
 * Every batch the studio tracks, one JSON file per profile, rewritten atomically on each change.
 * A damaged entry is skipped rather than losing the others.
 */
export class BatchStore {
  private cache = new Map<string, Map<string, TrackedBatch>>();

  constructor(private dir: string) {}

  private file(profileId: string): string {
    return join(this.dir, `${safeName(profileId)}.json`);
  }

  private load(profileId: string): Map<string, TrackedBatch> {
    let batches = this.cache.get(profileId);
    if (batches) return batches;
    batches = new Map();
    try {
      const parsed = fileSchema.safeParse(JSON.parse(readFileSync(this.file(profileId), 'utf8')));
      if (parsed.success) {
        for (const raw of parsed.data.batches) {
          const batch = trackedBatchSchema.safeParse(raw);
          if (batch.success) batches.set(batch.data.id, batch.data);
        }
      }
    } catch (err) {
      // No file yet, or unreadable: start empty; the server list fills it again.
      logCaughtUnlessMissing('batch list read', err);
    }
    this.cache.set(profileId, batches);
    return batches;
  }

  private save(profileId: string): void {
    const batches = [...this.load(profileId).values()];
    writeFileAtomicSync(this.file(profileId), JSON.stringify({ version: 1, batches }));
  }

  list(profileId: string): TrackedBatch[] {
    return [...this.load(profileId).values()];
  }

  get(profileId: string, id: string): TrackedBatch | undefined {
    return this.load(profileId).get(id);
  }

  put(batch: TrackedBatch): TrackedBatch {
    this.load(batch.profileId).set(batch.id, batch);
    this.save(batch.profileId);
    return batch;
  }

  update(profileId: string, id: string, change: (b: TrackedBatch) => TrackedBatch): TrackedBatch | undefined {
    const current = this.get(profileId, id);
    if (!current) return undefined;
    return this.put(change(current));
  }

  profiles(): string[] {
    return [...this.cache.keys()];
  }
}
