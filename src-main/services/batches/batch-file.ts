import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rowOfTask, type Draft } from '../../../src-shared/draft';
import type { WireItem } from '../gateway/batch-wire';
import { makeDir } from '../storage/atomic-file';
import type { BatchJsonInput } from '../library/folders/batch-json';
import { EXTENSION_OF_MIME, UniqueNames, safeName } from '../storage/file-names';
import type { IngestedImage } from '../zip/zip-ingest';
import { logCaught } from '../log/studio-log';
import type { ReferenceStore } from '../references/reference-store';
import type { TrackedBatch } from './tracked-batch';

export interface BatchFileDeps {
  references: Pick<ReferenceStore, 'read'>;
  profileName(profileId: string): string;
}

/**
 * A downloaded batch's record for its library folder (batch.json): the batch, its profile and
 * lineage, its draft, and each image and failure with the prompt and row it came from (the draft's
 * when the studio sent it, else the gateway's prompt preview). The draft's reference images are
 * copied into the staging folder beside it, so the folder holds everything the batch was made from.
 */
export async function buildBatchFile(
  deps: BatchFileDeps,
  batch: TrackedBatch,
  draft: Draft | null,
  images: IngestedImage[],
  errors: { custom_id: string; code: string; message: string }[],
  items: WireItem[] | undefined,
  source: 'zip' | 'items',
  staging: string,
): Promise<BatchJsonInput> {
  const previews = new Map((items ?? []).map((i) => [i.custom_id, i.prompt_preview ?? '']));
  const promptOf = (customId: string) => {
    const row = draft ? rowOfTask(draft, customId) : undefined;
    return {
      rowIndex: row?.index ?? null,
      prompt: row && draft ? draft.items[row.index]!.prompt : (previews.get(customId) ?? ''),
    };
  };
  const references: { id: string; name: string; mime: string; file: string }[] = [];
  if (draft) {
    const names = new UniqueNames();
    for (const ref of draft.references) {
      const data = await deps.references.read(ref).catch((err: unknown) => {
        logCaught('reference image for the batch folder', err);
        return undefined;
      });
      if (!data) continue;
      const file = `references/${names.take(safeName(`${ref.id.slice(0, 8)}-${ref.name.replace(/\.[^.]+$/, '')}`), EXTENSION_OF_MIME[ref.mime] ?? 'bin')}`;
      await makeDir(join(staging, 'references'));
      await writeFile(join(staging, file), data);
      references.push({ id: ref.id, name: ref.name, mime: ref.mime, file });
    }
  }
  return {
    batch: batch.remote,
    profile: { id: batch.profileId, name: deps.profileName(batch.profileId) },
    lineage: { rootBatchId: batch.rootBatchId, parentBatchId: batch.parentBatchId },
    draft,
    references,
    images: images.map((i) => ({ ...i, ...promptOf(i.customId) })),
    failures: errors.map((e) => ({
      customId: e.custom_id,
      code: e.code,
      message: e.message,
      ...promptOf(e.custom_id),
    })),
    download: { source, downloadedAt: new Date().toISOString() },
  };
}
