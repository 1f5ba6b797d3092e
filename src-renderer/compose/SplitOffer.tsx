import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft } from '../../src-shared/draft';
import type { DraftReport } from '../../src-shared/draft-rules';
import { splitDraft } from '../../src-shared/draft-split';
import { useStudio } from '../app/studio-context';
import { useCompose } from '../shared/compose-store';
import { draftWriterFor } from './draft-writer';

/** The limits a split into several batches can bring a draft under. */
const SPLITTABLE = [
  'TOO_MANY_IMAGES',
  'TOO_MANY_ITEMS',
  'TOO_MANY_REFERENCES_TOTAL',
  'REFERENCES_TOO_LARGE_TOTAL',
];

/**
 * A draft over the batch limits is offered as several drafts that each fit: the parts are saved, the
 * whole is deleted, and the first part opens.
 */
export function SplitOffer({
  draft,
  report,
  onSplit,
}: {
  draft: Draft;
  report: DraftReport | undefined;
  onSplit(parts: number): void;
}) {
  const { t } = useTranslation();
  const studio = useStudio();
  const load = useCompose((s) => s.load);
  const splittable = !!report && !report.ok && report.batch.some((b) => SPLITTABLE.includes(b.code));
  // Counted on the draft as it settles (a split of 2,000 rows takes a few milliseconds)...
  const parts = useMemo(() => (splittable ? splitDraft(draft) : undefined), [splittable, draft]);
  if (!parts || parts.length < 2) return null;

  async function split() {
    // ...and made from the draft as it is now, its last keystroke included.
    const pieces = splitDraft(useCompose.getState().draft ?? draft);
    // Through the one writer: an autosave of the whole draft, pending or under way, cannot land after
    // the delete and bring it back beside its parts.
    const writer = draftWriterFor(studio);
    for (const piece of pieces) await writer.save(piece);
    await writer.remove(draft.id);
    load(pieces[0]!);
    onSplit(pieces.length);
  }

  return (
    <div className="notice split-offer" role="status" data-testid="split-offer">
      {t('compose.splitOffer', { count: parts.length })}{' '}
      <button type="button" className="primary" onClick={() => void split()}>
        {t('compose.splitAction', { count: parts.length })}
      </button>
    </div>
  );
}
