import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ReferenceImage } from '../../../src-shared/draft';
import type { MethodOutput } from '../../../src-shared/studio-api';
import { StudioError } from '../../../src-shared/studio-error';
import { readBatchJson, type BatchJson } from '../library/folders/batch-json';
import type { LibraryCatalog } from '../library/catalog/library-catalog';
import { logCaught } from '../log/studio-log';
import type { ReferenceStore } from '../references/reference-store';

/** A stored reference without the store's own flag. */
const asReference = ({ converted: _converted, ...reference }: ReferenceImage & { converted: boolean }) =>
  reference;

/**
 * Images reused as the start of new work: as a reference (Compose) or an input (Realtime), and
 * as a recipe to make again. Bytes go from disk to the reference store, never through the window.
 */
export class ImageReuse {
  constructor(
    private deps: {
      library: LibraryCatalog;
      references: ReferenceStore;
      realtimeResult(jobId: string): { file: string; savedId?: string };
      batchItem(batchId: string, customId: string): Promise<{ data: Buffer; libraryId?: string }>;
    },
  ) {}

  /** A library image as a reference, its bytes unchanged, remembering which image it was. */
  async fromLibrary(id: string): Promise<ReferenceImage> {
    const image = await this.deps.library.detail(id);
    const stored = await this.deps.references.add(basename(image.file), await readFile(image.path));
    return { ...asReference(stored), sourceImageId: id };
  }

  /** A realtime result as a reference; once saved to the library, lineage points at that image. */
  async fromRealtime(jobId: string): Promise<ReferenceImage> {
    const result = this.deps.realtimeResult(jobId);
    const stored = await this.deps.references.add(basename(result.file), await readFile(result.file));
    return { ...asReference(stored), ...(result.savedId ? { sourceImageId: result.savedId } : {}) };
  }

  /**
   * A batch item's image (from its preview on Batches) as a reference: the downloaded file when the
   * batch is in the library (and lineage points at it), else the gateway's copy of the item.
   */
  async fromBatchItem(batchId: string, customId: string): Promise<ReferenceImage> {
    const item = await this.deps.batchItem(batchId, customId);
    const name = item.libraryId ? basename(item.libraryId) : `${customId}.png`;
    const stored = await this.deps.references.add(name, item.data);
    return { ...asReference(stored), ...(item.libraryId ? { sourceImageId: item.libraryId } : {}) };
  }

  /** What an image was made with, its references read back from its batch folder. */
  async recipe(id: string): Promise<MethodOutput<'reuse.recipe'>> {
    const image = await this.deps.library.detail(id);
    const folder = join(image.path, '..', '..');
    let record: BatchJson;
    try {
      record = await readBatchJson(folder);
    } catch (err) {
      logCaught('recipe batch.json', err);
      throw new StudioError({
        code: 'STUDIO_RECIPE_UNREADABLE',
        message: `The batch folder of ${basename(image.file)} cannot be read, so its recipe is unknown.`,
      });
    }
    const draft = record.draft;
    const wanted =
      draft && image.rowIndex !== null
        ? [...new Set([...(draft.items[image.rowIndex]?.referenceIds ?? []), ...draft.sharedReferenceIds])]
        : [];
    const references: ReferenceImage[] = [];
    let missingReferences = 0;
    for (const refId of wanted) {
      const file = record.references.find((r) => r.id === refId)?.file;
      const known = draft?.references.find((r) => r.id === refId);
      try {
        if (!file) throw new Error('not in the batch folder');
        const stored = await this.deps.references.add(
          known?.name ?? basename(file),
          await readFile(join(folder, file)),
        );
        const reference = asReference(stored);
        references.push(
          known?.sourceImageId ? { ...reference, sourceImageId: known.sourceImageId } : reference,
        );
      } catch (err) {
        // A reference the folder lost is reported as missing; the rest of the recipe still opens.
        logCaught(`recipe reference ${refId}`, err);
        missingReferences++;
      }
    }
    return {
      prompt: image.prompt,
      model: draft?.model || record.batch.model || image.model,
      customId: image.customId,
      references,
      missingReferences,
    };
  }
}
