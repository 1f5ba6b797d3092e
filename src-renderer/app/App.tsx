import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BatchesScreen } from '../batches/BatchesScreen';
import { useLiveBatches } from '../batches/use-live-batches';
import { ComposeScreen } from '../compose/ComposeScreen';
import { applyLanguage } from '../i18n/i18n';
import { KnowledgeBaseScreen } from '../kb/KnowledgeBaseScreen';
import { LibraryScreen } from '../library/LibraryScreen';
import { RealtimeScreen } from '../realtime/RealtimeScreen';
import { SettingsScreen } from '../settings/SettingsScreen';
import { ScreenErrorBoundary } from '../shell/ScreenErrorBoundary';
import { Sidebar } from '../shell/Sidebar';
import { TopBar } from '../shell/TopBar';
import { useNavigation, type Screen } from './navigation-store';
import { useLiveStudioState, useStudioQuery } from './studio-queries';
import { useAppliedTheme } from './theme';

const SCREEN_COMPONENTS: Record<Screen, () => React.JSX.Element> = {
  compose: ComposeScreen,
  batches: BatchesScreen,
  library: LibraryScreen,
  realtime: RealtimeScreen,
  kb: KnowledgeBaseScreen,
  settings: SettingsScreen,
};

export function App() {
  const { t } = useTranslation();
  useLiveStudioState();
  useLiveBatches();
  const settings = useStudioQuery('settings.get');
  useAppliedTheme(settings.data?.theme);
  useEffect(() => {
    if (settings.data) applyLanguage(settings.data.language);
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
      <Sidebar />
      <div className="workspace">
        <TopBar />
        <main id="main" tabIndex={-1}>
          <ScreenErrorBoundary screen={screen}>
            <Current />
          </ScreenErrorBoundary>
        </main>
      </div>
    </div>
  );
}
