import { notifyManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, firstScreenLoaded } from './app/App';
import { connectStudio } from './app/studio-client';
import { StudioContext } from './app/studio-context';
import i18n, { guessLanguage, languageReady } from './i18n/i18n';
// Tokens, then what every screen shares, then the shell; each screen brings its own styles.
import './styles/tokens.css';
import './styles/base.css';
import './shell/shell.css';

const root = createRoot(document.getElementById('root')!);
// Before the connection: the screen's files are asked for ahead of the first call.
// The browser's language too, when it is not English (its messages are a chunk of their own).
const firstScreen = Promise.all([
  firstScreenLoaded(),
  languageReady(guessLanguage()).catch(() => undefined),
]).catch(() => undefined);
const studio = connectStudio();

if (!studio) {
  // Browser mode opened without the token of this run.
  root.render(
    <main className="locked">
      <h1>{i18n.t('app.title')}</h1>
      <p>{i18n.t('errors.STUDIO_UNAUTHORIZED')}</p>
    </main>,
  );
} else {
  // A change to the cache (a mark set by a keypress) reaches the components in the same task, not
  // after a timer: the badge is drawn in the frame of the key, not two or three frames later.
  notifyManager.setScheduler(queueMicrotask);
  const queryClient = new QueryClient({
    defaultOptions: {
      // Main-process state arrives by events; refetching on focus would only poll.
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: 1 },
    },
  });
  // A chunk that failed is the screen's error boundary's to show, at its own render.
  void firstScreen.then(() =>
    root.render(
      <StrictMode>
        <StudioContext.Provider value={studio}>
          <QueryClientProvider client={queryClient}>
            <App />
          </QueryClientProvider>
        </StudioContext.Provider>
      </StrictMode>,
    ),
  );
}
