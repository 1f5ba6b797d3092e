import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LibraryImage, LibraryQuery, LibraryResult } from '../../src-shared/library-view';
import { StudioError } from '../../src-shared/studio-error';
import { useNavigation } from '../app/navigation-store';
import { useStudio } from '../app/studio-context';
import { queryKey, useStudioQuery } from '../app/studio-queries';
import { emptyDraft, useCompose } from '../compose/compose-store';
import { draftActions } from '../compose/draft-actions';
import { ErrorNotice } from '../shell/ErrorNotice';
import { askForText } from '../shell/confirm-store';
import { GALLERY_SHORTCUTS, keyHandler } from '../shell/shortcuts';
import { CompareView } from './CompareView';
import { downloadPreparedExport } from './export-download';
import { LibraryProblems } from './LibraryProblems';
import { GalleryThumb } from './GalleryThumb';
import { Lightbox } from './Lightbox';
import { StarRating } from './StarRating';

const CELL = 212;
type Change = { mark?: 'picked' | 'rejected' | null; stars?: number };

function Cell({
  item,
  selected,
  focused,
  onClick,
  onOpen,
  scrolling,
}: {
  item: LibraryImage;
  selected: boolean;
  focused: boolean;
  scrolling: boolean;
  onClick(e: React.MouseEvent): void;
  onOpen(): void;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="option"
      aria-selected={selected}
      id={`lib-${item.id}`}
      className={`lib-cell${selected ? ' selected' : ''}${focused ? ' focused' : ''}${item.mark ? ` mark-${item.mark}` : ''}`}
      onClick={onClick}
      onDoubleClick={onOpen}
      data-testid="library-cell"
      data-id={item.id}
      data-mark={item.mark ?? ''}
      data-stars={item.stars}
    >
      <GalleryThumb item={item} scrolling={scrolling} />
      <span className="lib-caption">{item.prompt}</span>
      <span className="lib-badges">
        {item.mark === 'picked' && <span className="badge accent">{t('library.picked')}</span>}
        {item.mark === 'rejected' && <span className="badge danger-badge">{t('library.rejected')}</span>}
        {item.stars > 0 && <span className="badge">{'★'.repeat(item.stars)}</span>}
      </span>
    </div>
  );
}

export function LibraryScreen() {
  const { t } = useTranslation();
  const studio = useStudio();
  const client = useQueryClient();
  const go = useNavigation((s) => s.go);
  const [query, setQuery] = useState<LibraryQuery>({ review: 'any', minStars: 0, sort: 'newest' });
  const [searchText, setSearchText] = useState('');
  const result = useStudioQuery('library.query', query, { placeholderData: (prev) => prev });
  const items = useMemo(() => result.data?.items ?? [], [result.data]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [focus, setFocus] = useState(0);
  const [anchor, setAnchor] = useState(0);
  const [lightbox, setLightbox] = useState<number>();
  const [compare, setCompare] = useState<LibraryImage[]>();
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<StudioError>();
  const scroller = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1000);

  useEffect(() => {
    const timer = setTimeout(() => setQuery((q) => ({ ...q, search: searchText || undefined })), 150);
    return () => clearTimeout(timer);
  }, [searchText]);
  useEffect(
    () => studio.on('library.changed', () => void client.invalidateQueries({ queryKey: ['library.query'] })),
    [studio, client],
  );
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, []);

  const columns = Math.max(1, Math.floor(width / CELL));
  const rows = Math.ceil(items.length / columns);
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => CELL,
    overscan: 3,
    // Thumbnails not yet seen load once scrolling pauses this long (see GalleryThumb).
    isScrollingResetDelay: 60,
  });
  const visible = virtualizer.getVirtualItems();

  /** Marks go to disk; the list shows them at once. */
  function mark(ids: string[], change: Change) {
    if (!ids.length) return;
    client.setQueryData<LibraryResult>(queryKey('library.query', query), (data) =>
      data
        ? {
            ...data,
            items: data.items.map((i) =>
              ids.includes(i.id)
                ? {
                    ...i,
                    mark: change.mark !== undefined ? change.mark : i.mark,
                    stars: change.stars ?? i.stars,
                  }
                : i,
            ),
          }
        : data,
    );
    studio.call('library.mark', { ids, ...change }).catch((err: unknown) => setError(StudioError.from(err)));
  }

  const targets = () => (selected.size ? [...selected] : items[focus] ? [items[focus]!.id] : []);

  function moveFocus(to: number, extend: boolean) {
    const next = Math.max(0, Math.min(items.length - 1, to));
    setFocus(next);
    if (extend) {
      const [a, b] = [Math.min(anchor, next), Math.max(anchor, next)];
      setSelected(new Set(items.slice(a, b + 1).map((i) => i.id)));
    } else {
      setAnchor(next);
      setSelected(new Set(items[next] ? [items[next]!.id] : []));
    }
    virtualizer.scrollToIndex(Math.floor(next / columns));
  }

  /** Where an arrow, Home or End takes the focus in the gallery. */
  const destination = (key: string) =>
    ({
      ArrowRight: focus + 1,
      ArrowLeft: focus - 1,
      ArrowDown: focus + columns,
      ArrowUp: focus - columns,
      Home: 0,
      End: items.length - 1,
    })[key] ?? focus;

  // Built from the list the `?` overlay shows.
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (!items.length) return;
    keyHandler(GALLERY_SHORTCUTS, {
      move: (k) => moveFocus(destination(k.key), false),
      extend: (k) => moveFocus(destination(k.key), true),
      selectAll: () => setSelected(new Set(items.map((i) => i.id))),
      clearSelection: () => setSelected(new Set()),
      openLightbox: () => setLightbox(focus),
      pick: () => mark(targets(), { mark: 'picked' }),
      reject: () => mark(targets(), { mark: 'rejected' }),
      unmark: () => mark(targets(), { mark: null, stars: 0 }),
      stars: (k) => mark(targets(), { stars: Number(k.key) }),
    })(e);
  };

  function clickCell(index: number, e: React.MouseEvent) {
    const id = items[index]!.id;
    setFocus(index);
    if (e.shiftKey) {
      const [a, b] = [Math.min(anchor, index), Math.max(anchor, index)];
      setSelected(new Set(items.slice(a, b + 1).map((i) => i.id)));
    } else if (e.ctrlKey || e.metaKey) {
      const next = new Set(selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      setSelected(next);
      setAnchor(index);
    } else {
      setSelected(new Set([id]));
      setAnchor(index);
    }
  }

  async function exportZip() {
    setError(undefined);
    try {
      const out = await studio.call('library.exportZip', { ids: targets() });
      if (out.canceled) return;
      if (out.downloadUrl) await downloadPreparedExport(out.downloadUrl, out.name);
      setMessage(t('library.exported', { count: out.images, path: out.path ?? out.name }));
    } catch (err) {
      setError(StudioError.from(err));
    }
  }

  async function exportFolder() {
    const folder = await askForText(t('library.exportFolderPrompt'));
    if (!folder) return;
    try {
      const out = await studio.call('library.exportFolder', { ids: targets(), folder });
      setMessage(t('library.exported', { count: out.images, path: out.path }));
    } catch (err) {
      setError(StudioError.from(err));
    }
  }

  function usePrompt(prompt: string) {
    const compose = useCompose.getState();
    if (!compose.draft) compose.load(emptyDraft());
    useCompose
      .getState()
      .change(draftActions.insertPrompts(useCompose.getState().draft!.items.length, [prompt]));
    go('compose');
  }

  const set = (patch: Partial<LibraryQuery>) => setQuery((q) => ({ ...q, ...patch }));
  const data = result.data;
  const selectedItems = items.filter((i) => selected.has(i.id));

  return (
    <section className="screen library" aria-labelledby="screen-title">
      <div className="section-head">
        <h1 id="screen-title">{t('library.title')}</h1>
        <span className="muted" role="status" data-testid="library-count">
          {t('library.count', {
            shown: items.length,
            count: data?.batches.reduce((n, b) => n + b.images, 0) ?? 0,
          })}
          {selected.size > 0 && ` · ${t('library.selected', { count: selected.size })}`}
        </span>
      </div>
      <div className="filters">
        <label className="inline-field grow">
          <span className="sr-only">{t('library.search')}</span>
          <input
            type="search"
            value={searchText}
            placeholder={t('library.searchPlaceholder')}
            onChange={(e) => setSearchText(e.target.value)}
            data-testid="library-search"
            className="grow"
          />
        </label>
        <label className="inline-field">
          <span>{t('library.batch')}</span>
          <select value={query.batchId ?? ''} onChange={(e) => set({ batchId: e.target.value || undefined })}>
            <option value="">{t('library.all')}</option>
            {data?.batches.map((b) => (
              <option key={b.id} value={b.id}>
                {b.taskName || b.id} ({b.images})
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t('library.model')}</span>
          <select value={query.model ?? ''} onChange={(e) => set({ model: e.target.value || undefined })}>
            <option value="">{t('library.all')}</option>
            {data?.models.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t('library.review')}</span>
          <select
            value={query.review}
            onChange={(e) => set({ review: e.target.value as LibraryQuery['review'] })}
            data-testid="library-review"
          >
            <option value="any">{t('library.reviewAny')}</option>
            <option value="picked">{t('library.picked')}</option>
            <option value="rejected">{t('library.rejected')}</option>
            <option value="unrated">{t('library.unrated')}</option>
          </select>
        </label>
        <label className="inline-field">
          <span>{t('library.minStars')}</span>
          <select value={query.minStars} onChange={(e) => set({ minStars: Number(e.target.value) })}>
            {[0, 1, 2, 3, 4, 5].map((n) => (
              <option key={n} value={n}>
                {t('library.stars', { count: n })}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t('library.sort')}</span>
          <select value={query.sort} onChange={(e) => set({ sort: e.target.value as LibraryQuery['sort'] })}>
            <option value="newest">{t('library.newest')}</option>
            <option value="oldest">{t('library.oldest')}</option>
            <option value="stars">{t('library.byStars')}</option>
            <option value="prompt">{t('library.byPrompt')}</option>
          </select>
        </label>
      </div>
      <div className="actions">
        <button type="button" onClick={() => mark(targets(), { mark: 'picked' })} disabled={!items.length}>
          {t('library.pick')} (P)
        </button>
        <button type="button" onClick={() => mark(targets(), { mark: 'rejected' })} disabled={!items.length}>
          {t('library.reject')} (X)
        </button>
        <button
          type="button"
          onClick={() => mark(targets(), { mark: null, stars: 0 })}
          disabled={!items.length}
        >
          {t('library.unmark')} (U)
        </button>
        <StarRating
          value={items[focus]?.stars ?? 0}
          disabled={!items.length}
          onChange={(stars) => mark(targets(), { stars })}
        />
        <button
          type="button"
          onClick={() => setCompare(selectedItems.slice(0, 4))}
          disabled={selectedItems.length < 2 || selectedItems.length > 4}
          title={t('library.compareHint')}
          data-testid="library-compare"
        >
          {t('library.compare')}
        </button>
        <button
          type="button"
          disabled={!items.length}
          data-testid="library-push-kb"
          onClick={() =>
            void studio
              .call('kb.pushFromLibrary', { ids: targets() })
              .then((push) => setMessage(t('kb.sentPicks', { count: push.rows })))
              .catch((err: unknown) => setError(StudioError.from(err)))
          }
        >
          {t('kb.sendPicks')}
        </button>
        <button
          type="button"
          onClick={() => void exportZip()}
          disabled={!items.length}
          data-testid="library-export-zip"
        >
          {t('library.exportZip')}
        </button>
        <button type="button" onClick={() => void exportFolder()} disabled={!items.length}>
          {t('library.exportFolder')}
        </button>
        {items[focus] && (
          <button
            type="button"
            onClick={() =>
              void studio
                .call('library.reveal', { id: items[focus]!.id })
                .then((r) => setMessage(t('library.revealed', { path: r.path })))
            }
          >
            {t('library.reveal')}
          </button>
        )}
      </div>
      <p className="help">{t('library.keysHelp')}</p>
      {message && (
        <p className="notice" role="status" data-testid="library-message">
          {message}
        </p>
      )}
      {error && <ErrorNotice error={error.toView()} />}
      {data && <LibraryProblems problems={data.problems} />}
      {data && data.items.length === 0 && (
        <p className="empty-state">{data.batches.length ? t('library.noMatch') : t('library.empty')}</p>
      )}
      <div
        ref={scroller}
        className="lib-gallery"
        role="listbox"
        aria-multiselectable="true"
        aria-label={t('library.galleryLabel')}
        aria-activedescendant={items[focus] ? `lib-${items[focus]!.id}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        data-testid="library-gallery"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {visible.map((row) => (
            <div
              key={row.key}
              className="lib-row"
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: row.size,
                transform: `translateY(${row.start}px)`,
              }}
            >
              {items.slice(row.index * columns, row.index * columns + columns).map((item, c) => {
                const index = row.index * columns + c;
                return (
                  <Cell
                    key={item.id}
                    item={item}
                    selected={selected.has(item.id)}
                    focused={index === focus}
                    onClick={(e) => clickCell(index, e)}
                    onOpen={() => setLightbox(index)}
                    scrolling={virtualizer.isScrolling}
                  />
                );
              })}
            </div>
          ))}
        </div>
      </div>
      {lightbox !== undefined && items[lightbox] && (
        <Lightbox
          items={items}
          index={lightbox}
          onIndex={(i) => {
            setLightbox(i);
            setFocus(i);
          }}
          onClose={() => {
            setLightbox(undefined);
            scroller.current?.focus();
          }}
          onMark={mark}
          onUsePrompt={usePrompt}
        />
      )}
      {compare && <CompareView items={compare} onClose={() => setCompare(undefined)} />}
    </section>
  );
}
