import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft, DraftItem, ReferenceImage } from '../../src-shared/draft';
import type { DraftIssue } from '../../src-shared/draft-rules';
import { draftActions } from '../shared/draft-actions';
import { parseMarks, rowMarks, useGridSelection } from './grid-selection';
import { withCellText } from './grid-range';
import { ReferenceThumb } from './ReferenceThumb';

/** Pasted text with several lines makes several rows; one line stays in the cell. */
export function pastedLines(text: string): string[] | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length > 1 ? lines : undefined;
}

interface PromptRowProps {
  item: DraftItem;
  index: number;
  issues: DraftIssue[] | undefined;
  references: Map<string, ReferenceImage>;
  change(update: (d: Draft) => Draft, key?: string): void;
  onPickFiles(row: number): void;
}

/** Class names of a text cell: in the selected range, under the cursor, being edited. */
function cellClass(base: string, marks: ReturnType<typeof parseMarks>, col: number): string {
  let name = `cell ${base}`;
  if (marks.selected(col)) name += ' selected';
  if (marks.cursor === col) name += marks.editing ? ' cursor editing' : ' cursor';
  return name;
}

/**
 * One row of the prompt grid, one line high: its id, prompt, image count, references and row buttons.
 * Memoised, and it reads only its own marks from the selection, so typing in one row or moving the
 * cursor re-renders the rows concerned alone. A cell is read-only until it is edited (Enter, F2, a
 * double click or a typed character): until then keys move the cursor, as in a spreadsheet.
 */
export const PromptRow = memo(function PromptRow({
  item,
  index,
  issues,
  references,
  change,
  onPickFiles,
}: PromptRowProps) {
  const { t } = useTranslation();
  const marks = parseMarks(useGridSelection((s) => rowMarks(s, index)));
  const openSide = useGridSelection((s) => s.openSide);
  const [dragging, setDragging] = useState(false);
  const n = index + 1;
  const label = (column: string) => `${t('compose.rowLabel', { n })} ${column}`;
  const edit = (col: number, text: string, key: string) =>
    change(
      (d) => ({ ...d, items: d.items.map((it, i) => (i === index ? withCellText(it, col, text) : it)) }),
      key,
    );
  // Only the cursor's cell is in the tab order, so Tab into the grid lands on it (a roving tabindex).
  const tabIndex = (col: number) => (marks.cursor === col ? 0 : -1);
  const editable = (col: number) => marks.cursor === col && marks.editing;
  const hasIssues = !!issues?.length;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={`grid-row${hasIssues ? ' has-issues' : ''}${dragging ? ' drop-target' : ''}`}
      data-testid={`grid-row-${index}`}
      data-drop-row={index}
      // The drop itself goes on to the screen's drop zone, which ends its highlight and gives the
      // files to this row (data-drop-row); stopping it here left the whole screen outlined.
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          e.stopPropagation();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={() => setDragging(false)}
    >
      <div role="rowheader" className="cell cell-index">
        {n}
      </div>
      <div role="gridcell" className={cellClass('cell-id', marks, 0)} aria-selected={marks.selected(0)}>
        <input
          aria-label={label(t('compose.colId'))}
          data-row={index}
          data-col={0}
          tabIndex={tabIndex(0)}
          readOnly={!editable(0)}
          value={item.customId}
          spellCheck={false}
          onChange={(e) => edit(0, e.target.value, `id:${index}`)}
        />
      </div>
      <div role="gridcell" className={cellClass('cell-prompt', marks, 1)} aria-selected={marks.selected(1)}>
        <textarea
          aria-label={label(t('compose.colPrompt'))}
          aria-invalid={hasIssues || undefined}
          data-row={index}
          data-col={1}
          tabIndex={tabIndex(1)}
          readOnly={!editable(1)}
          value={item.prompt}
          rows={1}
          onChange={(e) => edit(1, e.target.value, `prompt:${index}`)}
        />
      </div>
      <div role="gridcell" className={cellClass('cell-count', marks, 2)} aria-selected={marks.selected(2)}>
        <input
          aria-label={label(t('compose.colCount'))}
          data-row={index}
          data-col={2}
          tabIndex={tabIndex(2)}
          readOnly={!editable(2)}
          inputMode="numeric"
          value={String(item.outputCount)}
          onChange={(e) => edit(2, e.target.value, `count:${index}`)}
        />
      </div>
      <div role="gridcell" className="cell cell-refs">
        {item.referenceIds.map((id) => {
          const ref = references.get(id);
          return ref ? (
            <ReferenceThumb
              key={id}
              reference={ref}
              onRemove={() => change(draftActions.removeReference(id, index))}
            />
          ) : null;
        })}
        <button
          type="button"
          className="ghost small"
          tabIndex={-1}
          aria-label={t('compose.addRowRefs', { n })}
          onClick={() => onPickFiles(index)}
        >
          +
        </button>
      </div>
      <div role="gridcell" className="cell cell-actions">
        <button
          type="button"
          className="icon"
          tabIndex={-1}
          aria-label={t('compose.openSideEditor', { n })}
          title={t('compose.openSideEditor', { n })}
          onClick={() => openSide(index)}
          data-testid={`side-open-${index}`}
        >
          ✎
        </button>
        <button
          type="button"
          className="icon"
          tabIndex={-1}
          aria-label={`${t('compose.moveUp')} ${n}`}
          onClick={() => change(draftActions.moveRow(index, -1))}
        >
          ↑
        </button>
        <button
          type="button"
          className="icon"
          tabIndex={-1}
          aria-label={`${t('compose.moveDown')} ${n}`}
          onClick={() => change(draftActions.moveRow(index, 1))}
        >
          ↓
        </button>
        <button
          type="button"
          className="icon"
          tabIndex={-1}
          aria-label={`${t('compose.duplicate')} ${n}`}
          onClick={() => change(draftActions.duplicateRow(index))}
        >
          ❐
        </button>
        <button
          type="button"
          className="icon danger"
          tabIndex={-1}
          aria-label={`${t('compose.remove')} ${n}`}
          onClick={() => change(draftActions.removeRow(index))}
        >
          ×
        </button>
      </div>
      {hasIssues && (
        // A cell of its own on a second line, under the row's text cells.
        <div role="gridcell" className="row-issues-cell">
          <ul className="row-issues" data-testid={`row-issues-${index}`}>
            {issues!.map((issue, i) => (
              <li key={i}>{t(`compose.issue.${issue.code}`, issue.params)}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
});
