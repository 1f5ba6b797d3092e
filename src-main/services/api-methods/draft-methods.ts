import type { DraftStore } from '../drafts/draft-store';
import { draftToCsv, readTable } from '../drafts/table-import';
import { draftFromWhatWorked, type FromWhatWorkedDeps } from '../reuse/draft-from-what-worked';
import type { FeatureHandlers } from './feature-methods';

/**
 * Compose's drafts as the store keeps them: saved, listed, imported from tables and exported as CSV.
 * They need no catalog, so the first services (first-services.ts) answer them before the rest start.
 */
export function draftStoreHandlers(
  drafts: DraftStore,
): Omit<FeatureHandlers<'drafts'>, 'drafts.fromWhatWorked'> {
  return {
    // The list carries a summary only: a draft's rows can run to thousands.
    'drafts.list': () =>
      drafts.list().map((d) => ({ id: d.id, name: d.name, rows: d.items.length, updatedAt: d.updatedAt })),
    'drafts.get': ({ id }) => drafts.get(id) ?? null,
    'drafts.save': ({ draft }) => {
      const saved = drafts.save(draft);
      return { id: saved.id, updatedAt: saved.updatedAt! };
    },
    'drafts.delete': ({ id }) => {
      drafts.delete(id);
      return true;
    },
    'drafts.readTable': ({ name, dataBase64 }) => readTable(name, Buffer.from(dataBase64, 'base64')),
    'drafts.exportCsv': ({ draft }) => draftToCsv(draft.items),
  };
}

/** Every drafts method, the next round from "What worked" included (it reads the catalog). */
export function draftHandlers(
  drafts: DraftStore,
  whatWorked: Omit<FromWhatWorkedDeps, 'drafts'>,
): FeatureHandlers<'drafts'> {
  return {
    ...draftStoreHandlers(drafts),
    'drafts.fromWhatWorked': (request) => draftFromWhatWorked({ ...whatWorked, drafts }, request),
  };
}
