import { useIsFetching } from '@tanstack/react-query';
import { Suspense, useEffect, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveBatches } from '../batches/use-live-batches';
import { useSpendingFreshness } from '../batches/use-spending';
import { useKbPushEvents } from '../kb/use-live-kb-pushes';
import { useLibraryAway } from '../library/use-library-away';
import { useRealtimeJobEvents } from '../realtime/use-live-realtime-jobs';
import { applySavedLanguage, libraryMessagesLoaded } from '../i18n/i18n';
import { ConfirmHost } from '../shell/ConfirmHost';
import { ScreenErrorBoundary } from '../shell/ScreenErrorBoundary';
import { ShellErrorBoundary } from '../shell/ShellErrorBoundary';
import { ShortcutsHost } from '../shell/ShortcutsHost';
import { Sidebar } from '../shell/Sidebar';
import { TopBar } from '../shell/TopBar';
import { UpdateBanner } from '../updates/UpdateBanner';
import { lazyScreen, preloadScreens } from './lazy-screens';
import { useNavigation, type Screen } from './navigation-store';
import { useLiveStudioState, useStudioQuery } from './studio-queries';
import { useAppliedTheme } from './theme';

// Each screen is a chunk of its own, so the window opens with only the shell and the first screen.
const SCREEN_COMPONENTS: Record<Screen, ComponentType & { load(): Promise<unknown> }> = {
  compose: lazyScreen(() => import('../compose/ComposeScreen'), 'ComposeScreen'),
  batches: lazyScreen(() => import('../batches/BatchesScreen'), 'BatchesScreen'),
  // With its English strings, which the window's first script leaves out.
  library: lazyScreen(
    () => Promise.all([import('../library/LibraryScreen'), libraryMessagesLoaded()]).then(([m]) => m),
    'LibraryScreen',
  ),
  realtime: lazyScreen(() => import('../realtime/RealtimeScreen'), 'RealtimeScreen'),
  kb: lazyScreen(() => import('../kb/KnowledgeBaseScreen'), 'KnowledgeBaseScreen'),
  settings: lazyScreen(() => import('../settings/SettingsScreen'), 'SettingsScreen'),
};

/**
 * Fetches the chunk of the screen the window opens on. Asked for before anything else, so its
 * files are among the page's first (browser mode starts its services once those are sent), and
 * waited for before the first render: the screen is drawn at once, not after a loading fallback
 * and React's 300 ms hold on what replaces one.
 */
export function firstScreenLoaded(): Promise<unknown> {
  return SCREEN_COMPONENTS[useNavigation.getState().screen].load();
}

/**
 * Fetches the other screens' chunks (most of the window's script) once the first screen has its
 * data: begun at the first idle moment, while its calls were still out, they competed with them for
 * the page and the studio. A component of its own, so the count of calls re-renders only it.
 */
function ScreenPreloader({ settingsIn }: { settingsIn: boolean }) {
  const fetching = useIsFetching();
  const firstDataIn = settingsIn && fetching === 0;
  useEffect(() => (firstDataIn ? preloadScreens() : undefined), [firstDataIn]);
  return null;
}

/** Shown, and announced, for the moment a screen's chunk takes to arrive. */
function ScreenLoading() {
  const { t } = useTranslation();
  return (
    <p className="muted" role="status" data-testid="screen-loading">
      {t('common.loading')}
    </p>
  );
}

export function App() {
  const { t } = useTranslation();
  useLiveStudioState();
  useLiveBatches();
  // Queues whose screens come and go: their events are heard all the time, so a visit is current.
  useRealtimeJobEvents();
  useKbPushEvents();
  useLibraryAway();
  // Once for the whole window: the top bar's meter and the Batches chart share the same queries.
  useSpendingFreshness();
  const settings = useStudioQuery('settings.get');
  useAppliedTheme(settings.data?.theme);
  useEffect(() => {
    if (settings.data) applySavedLanguage(settings.data.language);
  }, [settings.data]);
  useEffect(() => {
    document.title = t('app.title');
  });
  const screen = useNavigation((s) => s.screen);
  const Current = SCREEN_COMPONENTS[screen];

  return (
    <div className="app">
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          // The fragment holds the route, so focus the content instead of following the link.
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('app.skipToContent')}
      </a>
      <ShellErrorBoundary part="sidebar">
        <Sidebar />
      </ShellErrorBoundary>
      <div className="workspace">
        <ShellErrorBoundary part="topbar">
          <TopBar />
        </ShellErrorBoundary>
        <ShellErrorBoundary part="updates">
          <UpdateBanner />
        </ShellErrorBoundary>
        <main id="main" tabIndex={-1}>
          {/* Inside the boundary, so a chunk that cannot load shows as that screen failing. */}
          <ScreenErrorBoundary screen={screen}>
            <Suspense fallback={<ScreenLoading />}>
              <Current />
            </Suspense>
          </ScreenErrorBoundary>
        </main>
      </div>
      <ScreenPreloader settingsIn={settings.data !== undefined} />
      <ShellErrorBoundary part="shortcuts">
        <ShortcutsHost />
      </ShellErrorBoundary>
      <ShellErrorBoundary part="dialogs">
        <ConfirmHost />
      </ShellErrorBoundary>
    </div>
  );
}
