import { lazy, useState, type ComponentType } from 'react';

/** Every screen's (and dialog's) chunk loader, for the preload once the window is idle. */
const SCREEN_LOADERS: (() => Promise<unknown>)[] = [];
/** For each screen, what lets its chunk be fetched anew after a failure (retryFailedScreens). */
const RETRIES: (() => void)[] = [];

/** Screens whose chunk failed to come are fetched again when next drawn: a screen's boundary reset. */
export function retryFailedScreens(): void {
  RETRIES.forEach((retry) => retry());
}

/**
 * A screen's code as its own chunk, fetched the first time the screen shows or when the window is
 * first idle. Once the chunk has arrived, the screen renders its component straight away: a
 * `React.lazy` component suspends on its first render even when its chunk is already here (its
 * own promise only starts then), so the loading fallback is committed, and React holds back the
 * content that replaces a fallback until 300 ms after it (its FALLBACK_THROTTLE_MS). Opening the
 * Library waited about 290 ms on that timer, with the page idle and nothing asked of the studio.
 */
export function lazyScreen<K extends string, P extends object = object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): ComponentType<P> & { load(): Promise<unknown> } {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const fetchChunk = () =>
    (loading ??= load().then(
      (module) => (loaded = module[name]),
      (err: unknown) => {
        // A chunk that failed (the host restarting) is asked for again next time.
        loading = undefined;
        throw err;
      },
    ));
  SCREEN_LOADERS.push(fetchChunk);
  const lazyChunk = () => lazy(async () => ({ default: await fetchChunk() }));
  let Lazy = lazyChunk();
  // React's lazy component keeps its first failure, so "Try again" showed it again: a new one, once
  // the screen's boundary is reset. Not at the failure itself: React renders a failed mount once
  // more before giving up, and a new lazy component there fetched the chunk again, without end. A
  // chunk not yet come is all it takes: one still on its way is the same fetch (fetchChunk).
  RETRIES.push(() => {
    if (!loaded) Lazy = lazyChunk();
  });
  function Screen(props: P) {
    // Chosen once for the screen's visit: going from the lazy wrapper to the component itself
    // while it shows would mount the screen a second time.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return <Component {...props} />;
  }
  return Object.assign(Screen, { load: fetchChunk });
}

/**
 * Fetches the other screens' chunks once the window is idle: the first screen opens with only its
 * own code, and a later switch waits neither for a chunk nor for React's loading fallback.
 */
export function preloadScreens(): () => void {
  const load = () => SCREEN_LOADERS.forEach((loader) => void loader().catch(() => undefined));
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(load, { timeout: 3000 });
    return () => window.cancelIdleCallback(id);
  }
  const timer = setTimeout(load, 1000);
  return () => clearTimeout(timer);
}
