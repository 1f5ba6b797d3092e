import { GATEWAY_LIMITS } from '../../../src-shared/draft-rules';
import { imagePaths } from '../../../src-shared/image-paths';
import { StudioError } from '../../../src-shared/studio-error';
import type { Batches } from '../batches/batches';
import type { SendGuard } from '../batches/send-guard';
import { SpendingService } from '../batches/spending';
import type { ProfileService } from '../profiles/profile-service';
import { openFolder } from '../dispatch/open-folder';
import type { ReferenceStore } from '../references/reference-store';
import type { FeatureHandlers } from './feature-methods';

export interface BatchHandlerDeps {
  /** The pieces the calls go to; the wiring object itself only starts and stops them. */
  batches: Pick<Batches, 'clients' | 'records' | 'sync' | 'library' | 'actions' | 'media' | 'costs'>;
  /** Every call that can create a paid batch goes through it. */
  sends: SendGuard;
  references: ReferenceStore;
  /** The active profile's monthly budget, for spending against it. */
  profiles: Pick<ProfileService, 'active'>;
  openPath?: (path: string) => Promise<void>;
}

/** Batches and the reference images their drafts carry. */
export function batchHandlers({
  batches,
  sends,
  references,
  profiles,
  openPath,
}: BatchHandlerDeps): FeatureHandlers<'batches' | 'references'> {
  const { clients, records, sync, library, actions, media, costs } = batches;
  // Every batch of the active profile, removed ones too: removing a batch from the list does not
  // give back what it cost, so the month's spending and the budget still count it.
  const spending = new SpendingService({
    profileId: () => profiles.active().id,
    batches: () => records.list({ includeRemoved: true }),
    monthlyBudget: () => profiles.active().monthlyBudget ?? null,
  });
  return {
    'batches.models': () => clients.clientFor(records.activeId()).models(),
    'batches.list': () => records.list(),
    'batches.get': ({ id }) => library.detail(id),
    'batches.items': ({ id }) => media.items(id),
    'batches.submit': ({ draft, ...terms }) => sends.submit(draft, terms),
    'batches.submitRun': ({ runId, draft, models, ...terms }) => sends.submitRun(runId, draft, models, terms),
    'batches.submissions': () => sends.submissionsList(),
    'batches.lastSent': ({ fingerprint }) => sends.lastSent(fingerprint),
    'batches.sync': (filters) => sync.sync(filters),
    'batches.cancel': ({ id }) => actions.cancel(id),
    'batches.download': ({ id, mode }) => actions.download(id, mode),
    'batches.deleteOutputs': ({ id }) => actions.deleteOutputs(id),
    'batches.deleteRecord': async ({ id, deleteLocalFiles }) => {
      await actions.deleteRecord(id, deleteLocalFiles);
      return true;
    },
    'batches.retryFailed': ({ id, ...terms }) => sends.retryFailed(id, terms),
    'batches.costs': () => costs.summary(),
    'batches.spending': (query) => spending.daily(query),
    'batches.budget': ({ timeZone }) => spending.month(timeZone),
    'batches.budgetCheck': (query) => spending.check(query),
    'batches.preview': async ({ id, customId }) => ({
      path: imagePaths.batchPreview(id, customId),
      source: (await media.preview(id, customId)).source,
    }),
    'batches.openFolder': ({ id }) => {
      const path = media.folderOf(id);
      if (!path)
        throw new StudioError({
          code: 'STUDIO_NOT_DOWNLOADED',
          message: 'This batch is not in the library yet.',
        });
      return openFolder(path, openPath);
    },
    'references.add': ({ name, dataBase64 }) => references.add(name, Buffer.from(dataBase64, 'base64')),
    'references.downscale': ({ reference }) =>
      references.downscale(reference, GATEWAY_LIMITS.maxReferenceBytes),
  };
}
