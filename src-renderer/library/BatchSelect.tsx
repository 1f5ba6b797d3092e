import { memo, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryOverview } from '../../src-shared/library-view';
import './batch-select.css';

/** The most batches the open picker draws; typing narrows the rest down to them. */
const SHOWN_MAX = 50;

type Batch = LibraryOverview['batches'][number];
const labelOf = (b: Batch) => `${b.taskName || b.id} (${b.images})`;

/** The batches whose name or id holds every word typed, newest first as the overview lists them. */
function matching(batches: readonly Batch[], text: string): readonly Batch[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return batches;
  const found: Batch[] = [];
  for (const b of batches) {
    const name = `${b.taskName}\n${b.id}`.toLowerCase();
    if (words.every((w) => name.includes(w))) found.push(b);
  }
  return found;
}

/**
 * The batch filter: a button saying the chosen batch, opening a picker with a search box and at
 * most fifty batches. A library of a million images has some 5,000 batches: drawn as options of a
 * select, they were 30,000 of the page's DOM nodes (against 3,900 at 100,000 images), restyled with
 * every change of the page. Closed, the picker draws nothing; open, fifty rows at most.
 */
export const BatchSelect = memo(function BatchSelect({
  batchId,
  batches,
  labelId,
  onChange,
}: {
  batchId: string | undefined;
  batches: LibraryOverview['batches'] | undefined;
  /** The element naming the filter ("Batch"). */
  labelId: string;
  onChange(batchId: string | undefined): void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const chosen = batchId === undefined ? undefined : batches?.find((b) => b.id === batchId);
  const found = useMemo(() => (open ? matching(batches ?? [], text) : []), [open, batches, text]);
  // "All" first, then the batches found, as far as the picker draws them.
  const options: { id: string | undefined; label: string }[] = [
    { id: undefined, label: t('library.all') },
    ...found.slice(0, SHOWN_MAX).map((b) => ({ id: b.id, label: labelOf(b) })),
  ];
  const at = Math.min(active, options.length - 1);

  const close = (focusButton: boolean) => {
    setOpen(false);
    setText('');
    setActive(0);
    if (focusButton) button.current?.focus();
  };
  const choose = (option: (typeof options)[number]) => {
    close(true);
    if (option.id !== batchId) onChange(option.id);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive(Math.max(0, Math.min(options.length - 1, at + step)));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(options[at]!);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    }
  };

  return (
    <div
      className="batch-select"
      onBlur={(e) => {
        // Focus leaving the picker (a click elsewhere, Tab) closes it; moving inside it does not.
        if (open && !e.currentTarget.contains(e.relatedTarget as Node | null)) close(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby={`${labelId} ${id}-value`}
        onClick={() => (open ? close(false) : setOpen(true))}
        data-testid="library-batch"
      >
        <span id={`${id}-value`}>
          {batchId === undefined ? t('library.all') : chosen ? labelOf(chosen) : batchId}
        </span>
      </button>
      {open && (
        <div className="batch-select-popup" data-testid="library-batch-picker">
          <input
            type="search"
            role="combobox"
            aria-expanded="true"
            aria-controls={`${id}-list`}
            aria-activedescendant={`${id}-${at}`}
            aria-labelledby={labelId}
            placeholder={t('library.batchFind')}
            value={text}
            autoFocus
            onChange={(e) => {
              setText(e.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
            data-testid="library-batch-search"
          />
          <ul id={`${id}-list`} role="listbox" aria-labelledby={labelId}>
            {options.map((o, i) => (
              <li
                key={o.id ?? ''}
                id={`${id}-${i}`}
                role="option"
                aria-selected={o.id === batchId}
                className={i === at ? 'active' : undefined}
                // Chosen on mouse down, before the search box's blur closes the picker.
                onMouseDown={(e) => {
                  e.preventDefault();
                  choose(o);
                }}
                onMouseEnter={() => setActive(i)}
              >
                {o.label}
              </li>
            ))}
          </ul>
          <p className="muted" role="status" data-testid="library-batch-found">
            {found.length === 0
              ? t('library.batchNone')
              : found.length > SHOWN_MAX
                ? t('library.batchMore', { shown: SHOWN_MAX, count: found.length })
                : t('library.batchFound', { count: found.length })}
          </p>
        </div>
      )}
    </div>
  );
});
