import { useTranslation } from 'react-i18next';
import type { LibraryImage } from '../../src-shared/library-view';
import { imagePaths } from '../../src-shared/image-paths';
import { imageUrl } from '../app/image-url';
import { useStudioQuery } from '../app/studio-queries';

/** Small thumbnails of related images, each opening that image. */
function Strip({
  title,
  items,
  onOpen,
  testId,
}: {
  title: string;
  items: LibraryImage[];
  onOpen(item: LibraryImage): void;
  testId: string;
}) {
  const { t } = useTranslation();
  if (!items.length) return null;
  return (
    <div className="lineage" data-testid={testId}>
      <h4>{title}</h4>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <button
              type="button"
              className="lineage-thumb"
              title={item.prompt}
              aria-label={t('reuse.openImage', { prompt: item.prompt })}
              onClick={() => onOpen(item)}
              data-id={item.id}
            >
              <img src={imageUrl(imagePaths.libraryThumb(item.id, 256))} alt="" draggable={false} />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What an image was made from and what was made from it ("Made from", "Used in"). */
export function LightboxLineage({ id, onOpen }: { id: string; onOpen(item: LibraryImage): void }) {
  const { t } = useTranslation();
  const lineage = useStudioQuery('library.lineage', { id });
  const { ancestors = [], descendants = [] } = lineage.data ?? {};
  if (!ancestors.length && !descendants.length) return null;
  return (
    <section aria-label={t('reuse.lineage')}>
      <Strip title={t('reuse.madeFrom')} items={ancestors} onOpen={onOpen} testId="lineage-ancestors" />
      <Strip title={t('reuse.usedIn')} items={descendants} onOpen={onOpen} testId="lineage-descendants" />
    </section>
  );
}
