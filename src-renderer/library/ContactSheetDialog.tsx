import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactSheetOptions } from '../../src-shared/library-view';
import { Modal } from '../shell/Modal';

const PAGE_SIZES = ['A4', 'A3', 'Letter'] as const;
const ORIENTATIONS = ['portrait', 'landscape'] as const;
const PER_PAGE = [4, 6, 9, 12, 20, 30] as const;

interface Props {
  /** How many images the sheet will hold: the selection, else the focused image. */
  count: number;
  onExport(options: ContactSheetOptions): void;
  onClose(): void;
}

/** A PDF contact sheet's title, page size, orientation and images per page. */
export function ContactSheetDialog({ count, onExport, onClose }: Props) {
  const { t } = useTranslation();
  const [options, setOptions] = useState<ContactSheetOptions>({
    title: '',
    pageSize: 'A4',
    orientation: 'portrait',
    perPage: 12,
  });
  const set = (patch: Partial<ContactSheetOptions>) => setOptions((o) => ({ ...o, ...patch }));

  return (
    <Modal title={t('sheet.title')} onClose={onClose} testId="contact-sheet-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onExport(options);
        }}
      >
        <p className="muted">{t('sheet.intro', { count })}</p>
        <label className="field">
          <span>{t('sheet.sheetTitle')}</span>
          <input
            value={options.title}
            maxLength={200}
            placeholder={t('contactSheet.defaultTitle')}
            onChange={(e) => set({ title: e.target.value })}
            data-testid="sheet-title"
          />
        </label>
        <div className="field-row">
          <label className="field">
            <span>{t('sheet.pageSize')}</span>
            <select
              value={options.pageSize}
              onChange={(e) => set({ pageSize: e.target.value as ContactSheetOptions['pageSize'] })}
              data-testid="sheet-page-size"
            >
              {PAGE_SIZES.map((size) => (
                <option key={size}>{size}</option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('sheet.orientation')}</span>
            <select
              value={options.orientation}
              onChange={(e) => set({ orientation: e.target.value as ContactSheetOptions['orientation'] })}
              data-testid="sheet-orientation"
            >
              {ORIENTATIONS.map((o) => (
                <option key={o} value={o}>
                  {t(`sheet.${o}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('sheet.perPage')}</span>
            <select
              value={options.perPage}
              onChange={(e) => set({ perPage: Number(e.target.value) as ContactSheetOptions['perPage'] })}
              data-testid="sheet-per-page"
            >
              {PER_PAGE.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>
        </div>
        <div className="actions">
          <button type="submit" className="primary" data-testid="sheet-export">
            {t('sheet.export')}
          </button>
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
