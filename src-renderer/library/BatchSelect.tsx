import { memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryOverview } from '../../src-shared/library-view';

/** How long after the batches arrive the list waits before it is drawn when the page is idle. */
const SETTLE_MS = 1000;
/** Before this (after the settling), the batch list is drawn only if the select is reached (pointer or keyboard). */
const IDLE_TIMEOUT_MS = 2000;

/**
 * The batch filter. A library of a million images has some 5,000 batches: their options are drawn
 * once the first screen is up (when the page is idle) or at once when the pointer or the focus
 * reaches the select, not in the frame that draws the first rows of thumbnails. Until then the
 * select holds "All" and the chosen batch. Each option is one text node.
 *
 * "Idle" is counted from the batches' arrival, and a second later: an idle callback asked for
 * earlier fires while the page waits for the network (the overview and the list are on their
 * way), and 5,000 options (50 ms of script, 70 ms of style and layout) were then drawn in the
 * task that received the overview, ahead of the list's answer and so of the first thumbnails.
 */
export const BatchSelect = memo(function BatchSelect({
  batchId,
  batches,
  onChange,
}: {
  batchId: string | undefined;
  batches: LibraryOverview['batches'] | undefined;
  onChange(batchId: string | undefined): void;
}) {
  const { t } = useTranslation();
  const [listed, setListed] = useState(false);
  const arrived = batches !== undefined;
  useEffect(() => {
    if (listed || !arrived) return;
    let idle: number | undefined;
    const settle = setTimeout(() => {
      idle = requestIdleCallback(() => setListed(true), { timeout: IDLE_TIMEOUT_MS });
    }, SETTLE_MS);
    return () => {
      clearTimeout(settle);
      if (idle !== undefined) cancelIdleCallback(idle);
    };
  }, [listed, arrived]);
  const shown = listed ? batches : batches?.filter((b) => b.id === batchId);
  return (
    <select
      value={batchId ?? ''}
      onChange={(e) => onChange(e.target.value || undefined)}
      onPointerEnter={() => setListed(true)}
      onFocus={() => setListed(true)}
      data-testid="library-batch"
    >
      <option value="">{t('library.all')}</option>
      {shown?.map((b) => (
        <option key={b.id} value={b.id}>
          {`${b.taskName || b.id} (${b.images})`}
        </option>
      ))}
    </select>
  );
});
