import type { z } from 'zod';
import type { Draft, DraftItem, ReferenceImage } from '../../../src-shared/draft';
import { referenceLimitOf } from '../../../src-shared/draft-rules';
import type { PromptParts } from '../../../src-shared/prompt-parts';
import { expandTemplateRows, templateCount, templateVariables } from '../../../src-shared/prompt-template';
import type { Language } from '../../../src-shared/settings';
import { StudioError } from '../../../src-shared/studio-error';
import { WHAT_WORKED_MODEL, type fromWhatWorkedSchema } from '../../../src-shared/what-worked';
import type { PickedImage } from '../library/catalog-what-worked';
import type { LibraryCatalog } from '../library/library-catalog';
import type { DraftStore } from './draft-store';

type Request = z.output<typeof fromWhatWorkedSchema>;

export interface FromWhatWorkedDeps {
  library: Pick<LibraryCatalog, 'whatWorkedPicks'>;
  /** A library image stored as a reference ("Use as reference"), lineage kept. */
  reference(libraryId: string): Promise<ReferenceImage>;
  drafts: Pick<DraftStore, 'save'>;
  language(): Language;
}

/** A draft holds at most this many rows (src-shared/draft.ts). */
const MAX_ROWS = 10_000;
/** References a row takes from its picked images, at most (and never past the model's limit). */
const REFERENCES_PER_ROW = 4;

const NAME_SUFFIX: Record<Language, string> = { en: ' (what worked)', 'zh-CN': '（择优再来）' };

const refuse = (code: string, message: string) => new StudioError({ code, message });

/** The value seen most often, first seen first on a tie. */
function mostCommon(list: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of list) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  for (const [v, n] of counts) if (best === undefined || n > counts.get(best)!) best = v;
  return best;
}

const distinct = (list: readonly string[]) => [...new Set(list)];

/**
 * "New draft from what worked": the chosen rows' winning values crossed again through their
 * template (`cross`), or the picked prompts kept as they were (`keep`), each with its parts, the
 * given number of images a row, and optionally the picked images as each row's references. The
 * draft is saved and answered whole; nothing is sent.
 */
export async function draftFromWhatWorked(deps: FromWhatWorkedDeps, request: Request): Promise<Draft> {
  const picks = await deps.library.whatWorkedPicks(request.query, request.chosen);
  const all = picks.flat();
  if (!all.length)
    throw refuse(
      'STUDIO_WHAT_WORKED_NO_PICKS',
      'None of the chosen rows has a picked image: pick some, or choose other rows.',
    );
  const chosenModels = request.chosen.map((c) => c[WHAT_WORKED_MODEL]).filter((m): m is string => !!m);
  const model = mostCommon(chosenModels.length ? chosenModels : all.map((p) => p.model)) ?? '';
  const rows = request.mode === 'cross' ? crossed(request, all) : kept(all);
  if (rows.length > MAX_ROWS)
    throw refuse(
      'STUDIO_WHAT_WORKED_TOO_MANY',
      `The chosen values make ${rows.length} prompts; a draft holds at most ${MAX_ROWS}. Choose fewer rows.`,
    );
  const perRow = request.withReferences ? Math.min(REFERENCES_PER_ROW, referenceLimitOf(model)) : 0;
  const references = new Map<string, ReferenceImage>();
  const byImage = new Map<string, string>();
  const items: DraftItem[] = [];
  for (const [index, row] of rows.entries()) {
    const referenceIds: string[] = [];
    for (const image of row.from.slice(0, perRow)) {
      if (!byImage.has(image.id)) {
        const ref = await deps.reference(image.id);
        byImage.set(image.id, ref.id);
        references.set(ref.id, ref);
      }
      referenceIds.push(byImage.get(image.id)!);
    }
    items.push({
      customId: `item-${String(index + 1).padStart(3, '0')}`,
      prompt: row.prompt,
      outputCount: request.outputCount,
      referenceIds: distinct(referenceIds),
      parts: row.parts,
    });
  }
  const base = mostCommon(all.map((p) => p.taskName)) || 'Batch';
  return deps.drafts.save({
    id: `draft-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    name: `${base}${NAME_SUFFIX[deps.language()]}`.slice(0, 500),
    model,
    items,
    sharedReferenceIds: [],
    references: [...references.values()],
    responseMime: 'image/png',
  });
}

interface Row {
  prompt: string;
  parts?: PromptParts;
  /** The picked images it comes from: its references, when asked for. */
  from: PickedImage[];
}

/** Each picked prompt once, in the chosen rows' order, with the parts it was made with. */
function kept(all: PickedImage[]): Row[] {
  const rows = new Map<string, Row>();
  for (const image of all) {
    const row = rows.get(image.prompt);
    if (row) row.from.push(image);
    else
      rows.set(image.prompt, {
        prompt: image.prompt,
        ...(Object.keys(image.values).length
          ? {
              parts: {
                ...(image.template !== undefined ? { template: image.template } : {}),
                values: image.values,
                source: image.template !== undefined ? 'template' : 'suggested',
              },
            }
          : {}),
        from: [image],
      });
  }
  return [...rows.values()];
}

/**
 * The template the picked images were made from (the most common), every variable of it the
 * chosen rows name taking their winning values, and every other variable the values its picked
 * images had: crossed again.
 */
function crossed(request: Request, all: PickedImage[]): Row[] {
  const template = mostCommon(all.flatMap((p) => (p.template !== undefined ? [p.template] : [])));
  if (template === undefined)
    throw refuse(
      'STUDIO_WHAT_WORKED_NO_TEMPLATE',
      'The picked images were not made from a template, so there is nothing to cross: keep their prompts instead.',
    );
  const made = all.filter((p) => p.template === template);
  const names = templateVariables(template);
  const lists = Object.fromEntries(
    names.map((name) => [
      name,
      distinct(
        request.query.by.includes(name)
          ? request.chosen.map((c) => c[name] ?? '')
          : made.map((p) => p.values[name] ?? ''),
      ),
    ]),
  );
  if (templateCount(lists, names, 'cross') > MAX_ROWS)
    throw refuse(
      'STUDIO_WHAT_WORKED_TOO_MANY',
      `The chosen values make ${templateCount(lists, names, 'cross')} prompts; a draft holds at most ${MAX_ROWS}. Choose fewer rows.`,
    );
  return expandTemplateRows(template, lists, 'cross').map(({ prompt, values }) => ({
    prompt,
    parts: { template, values, source: 'template' },
    // Its references: the picked images that had its values (those of the template's variables).
    from: made.filter((p) => names.every((n) => (p.values[n] ?? '') === values[n])),
  }));
}
