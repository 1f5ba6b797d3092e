import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { imagePaths, thumbSizeFor } from '../../src-shared/image-paths';
import type { LibraryImage } from '../../src-shared/library-view';
import { StudioError } from '../../src-shared/studio-error';
import { imageUrl } from '../app/image-url';
import { useStudio } from '../app/studio-context';
import { keyHandler, SURVEY_SHORTCUTS } from '../shell/shortcuts';
import { markingKeys } from '../shared/marking-keys';
import { ChoiceTake, ChoiceView, MarkBadge } from './ChoiceView';
import type { MarkFn } from './library-hooks';
import { chooseOne, showingMarks, useOpenChoice, type SurveyRequest } from './library-choice';
import { closeSurvey, SURVEY_MAX, surveyColumns } from './library-survey';
import { imagesById } from './library-windows';
import './survey.css';

interface HostProps {
  onMark: MarkFn;
  onMessage(message: string): void;
  onError(error: StudioError): void;
}

/** Where the survey is drawn when open: once, on the Library screen. */
export function SurveyHost(props: HostProps) {
  const request = useOpenChoice('survey')?.request;
  if (!request) return null;
  return <SurveyLoader key={JSON.stringify(request)} request={request} {...props} />;
}

/** The images of a request: read from the gallery's cache where it has them, else from main. */
function SurveyLoader({ request, onError, ...rest }: HostProps & { request: SurveyRequest }) {
  const studio = useStudio();
  const client = useQueryClient();
  const [loaded, setLoaded] = useState<{ items: LibraryImage[]; total: number }>();
  useEffect(() => {
    let live = true;
    const load =
      'ids' in request
        ? imagesById(studio, client, request.ids.slice(0, SURVEY_MAX)).then((items) => ({
            items,
            total: request.ids.length,
          }))
        : studio.call('library.query', {
            promptOf: request.promptOf,
            review: 'any',
            minStars: 0,
            sort: 'oldest',
            limit: SURVEY_MAX,
          });
    load
      .then((found) => live && setLoaded({ items: found.items, total: found.total }))
      .catch((err: unknown) => {
        closeSurvey();
        onError(StudioError.from(err));
      });
    return () => {
      live = false;
    };
  }, [request, studio, client, onError]);
  if (!loaded) return null;
  return <Survey initial={loaded.items} total={loaded.total} {...rest} />;
}

/**
 * The survey: up to two dozen images side by side, as large as the window allows, one focused. The
 * culling keys mark the focused one; Enter chooses it (picked, the others rejected, one undo step);
 * Delete takes an image out of the survey without marking it, to narrow the choice.
 */
function Survey({
  initial,
  total,
  onMark,
  onMessage,
}: Omit<HostProps, 'onError'> & { initial: LibraryImage[]; total: number }) {
  const { t } = useTranslation();
  const [items, setItems] = useState(initial);
  const [focus, setFocus] = useState(0);
  const [stage, setStage] = useState(() => ({ width: window.innerWidth, height: window.innerHeight - 56 }));
  useEffect(() => {
    const resize = () => setStage({ width: window.innerWidth, height: window.innerHeight - 56 });
    window.addEventListener('resize', resize);
    return () => window.removeEventListener('resize', resize);
  }, []);
  const at = Math.min(focus, items.length - 1);
  const focused = items[at];
  const columns = surveyColumns(items.length, stage.width, stage.height);
  const rows = Math.ceil(items.length / columns);
  // Thumbnails made at the size shown (never scaled up); the originals only for a few images.
  const side = Math.min(stage.width / columns, stage.height / rows) * (window.devicePixelRatio || 1);
  const src = (item: LibraryImage) =>
    imageUrl(
      items.length <= 4
        ? imagePaths.libraryOriginal(item.id)
        : imagePaths.libraryThumb(item.id, thumbSizeFor(side)),
    );

  const mark = showingMarks(setItems, onMark);
  const choose = (item: LibraryImage) => {
    const rejected = chooseOne(
      mark,
      item.id,
      items.map((i) => i.id),
      'rejected',
    );
    onMessage(t('library.surveyChosen', { count: rejected }));
    closeSurvey();
  };
  const drop = (item: LibraryImage) => {
    if (items.length <= 1) return false;
    setItems((list) => list.filter((i) => i.id !== item.id));
  };

  const onKey = (e: React.KeyboardEvent) => {
    if (!focused) return;
    const move = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns }[e.key] ?? 0;
    const handled = keyHandler(SURVEY_SHORTCUTS, {
      surveyMove: () => {
        const next = at + move;
        if (next < 0 || next >= items.length) return false;
        setFocus(next);
      },
      ...markingKeys((change) => mark([focused.id], change)),
      surveyChoose: () => choose(focused),
      surveyDrop: () => drop(focused),
    })(e);
    if (handled) e.stopPropagation();
  };

  const title = t('library.surveyTitle', { count: items.length });
  return (
    <ChoiceView
      className="survey"
      title={title}
      notes={
        <>
          {total > initial.length && (
            <span className="muted">{t('library.surveyCapped', { count: initial.length })}</span>
          )}
          <span className="muted">{t('library.surveyKeys')}</span>
        </>
      }
      notice={items.length < 2 ? t('library.surveyOnlyOne') : undefined}
      grid={{
        className: 'survey-grid',
        style: {
          gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
          gridTemplateRows: `repeat(${rows}, minmax(0, 1fr))`,
        },
      }}
      onClose={closeSurvey}
      onKeyDown={onKey}
      testId="survey"
    >
      {items.map((item, i) => (
        <ChoiceTake
          key={item.id}
          item={item}
          className="survey-take"
          focused={i === at}
          src={src(item)}
          onFocus={() => setFocus(i)}
          testId="survey-take"
        >
          <span className="survey-name">{item.customId}</span>
          <MarkBadge mark={item.mark} testId="survey-mark" />
          {item.stars > 0 && <span className="badge">{'★'.repeat(item.stars)}</span>}
          {i === at && (
            <span className="actions">
              <button type="button" className="primary" onClick={() => choose(item)}>
                {t('library.surveyChoose')}
              </button>
              <button type="button" onClick={() => drop(item)} disabled={items.length <= 1}>
                {t('library.surveyDrop')}
              </button>
            </span>
          )}
        </ChoiceTake>
      ))}
    </ChoiceView>
  );
}
