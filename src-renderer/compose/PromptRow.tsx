import { memo, useState, type ClipboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Draft, DraftItem, ReferenceImage } from '../../src-shared/draft';
import type { DraftIssue } from '../../src-shared/draft-rules';
import { draftActions } from './draft-actions';
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
  onRowFiles(files: File[], row: number): void;
  onPasteLines(lines: string[], row: number): void;
  onPickFiles(row: number): void;
}

/**
 * One row of the prompt grid: its id, prompt, image count, references and row buttons. Memoised, so
 * typing in one row re-renders that row alone.
 */
export const PromptRow = memo(function PromptRow({
  item,
  index,
  issues,
  references,
  change,
  onRowFiles,
  onPasteLines,
  onPickFiles,
}: PromptRowProps) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  const n = index + 1;
  // The drop itself goes on to the screen's drop zone, which ends its highlight and gives the
  // files to this row (data-drop-row); stopping it here left the whole screen outlined.
  const onDrop = () => setDragging(false);
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (e.clipboardData.files.length) {
      e.preventDefault();
      onRowFiles([...e.clipboardData.files], index);
      return;
    }
    const lines = pastedLines(e.clipboardData.getData('text/plain'));
    if (!lines) return;
    e.preventDefault();
    onPasteLines(lines, index);
  };
  const hasIssues = !!issues?.length;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={`grid-row${hasIssues ? ' has-issues' : ''}${dragging ? ' drop-target' : ''}`}
      data-testid={`grid-row-${index}`}
      data-drop-row={index}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) {
          e.preventDefault();
          e.stopPropagation();
          setDragging(true);
        }
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div role="cell" className="cell cell-index">
        {n}
      </div>
      <div role="cell" className="cell cell-id">
        <input
          aria-label={`${t('compose.rowLabel', { n })} ${t('compose.colId')}`}
          data-row={index}
          data-col="id"
          value={item.customId}
          spellCheck={false}
          onChange={(e) => change(draftActions.setItem(index, { customId: e.target.value }), `id:${index}`)}
        />
      </div>
      <div role="cell" className="cell cell-prompt">
        <textarea
          aria-label={`${t('compose.rowLabel', { n })} ${t('compose.colPrompt')}`}
          aria-invalid={hasIssues || undefined}
          data-row={index}
          data-col="prompt"
          value={item.prompt}
          rows={3}
          onChange={(e) => change(draftActions.setItem(index, { prompt: e.target.value }), `prompt:${index}`)}
          onPaste={onPaste}
        />
        {hasIssues && (
          <ul className="row-issues" data-testid={`row-issues-${index}`}>
            {issues!.map((issue, i) => (
              <li key={i}>{t(`compose.issue.${issue.code}`, issue.params)}</li>
            ))}
          </ul>
        )}
      </div>
      <div role="cell" className="cell cell-count">
        <input
          aria-label={`${t('compose.rowLabel', { n })} ${t('compose.colCount')}`}
          data-row={index}
          data-col="count"
          inputMode="numeric"
          value={String(item.outputCount)}
          onChange={(e) => {
            const value = Number(e.target.value.replace(/\D/g, '') || 0);
            change(draftActions.setItem(index, { outputCount: value }), `count:${index}`);
          }}
        />
      </div>
      <div role="cell" className="cell cell-refs">
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
          aria-label={t('compose.addRowRefs', { n })}
          onClick={() => onPickFiles(index)}
        >
          +
        </button>
      </div>
      <div role="cell" className="cell cell-actions">
        <button
          type="button"
          className="icon"
          aria-label={`${t('compose.moveUp')} ${n}`}
          onClick={() => change(draftActions.moveRow(index, -1))}
        >
          ↑
        </button>
        <button
          type="button"
          className="icon"
          aria-label={`${t('compose.moveDown')} ${n}`}
          onClick={() => change(draftActions.moveRow(index, 1))}
        >
          ↓
        </button>
        <button
          type="button"
          className="icon"
          aria-label={`${t('compose.duplicate')} ${n}`}
          onClick={() => change(draftActions.duplicateRow(index))}
        >
          ❐
        </button>
        <button
          type="button"
          className="icon danger"
          aria-label={`${t('compose.remove')} ${n}`}
          onClick={() => change(draftActions.removeRow(index))}
        >
          ×
        </button>
      </div>
    </div>
  );
});
