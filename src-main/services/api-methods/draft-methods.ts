import type { DraftStore } from '../drafts/draft-store';
import { draftToCsv, readTable } from '../drafts/table-import';
import type { FeatureHandlers } from './feature-methods';

/** Compose's drafts: saved, listed, imported from tables and exported as CSV. */
export function draftHandlers(drafts: DraftStore): FeatureHandlers<'drafts'> {
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
