/** What the web host tells the gate: a file of the page being sent, and a call that needs the services. */
export interface ServicesGate {
  /** A file of the page is being sent; the function returned says it has been. */
  sending(): () => void;
  /** A call, an image or the event stream waits for the services, or a page's script was sent (its calls follow). */
  wanted(): void;
}

/** The gate as its owner holds it: armed once the host listens, so no timer starts the services before. */
export interface ArmableGate extends ServicesGate {
  arm(): void;
  /** Resolves at a moment no file of the page is being sent (services-warm-up.ts loads in those). */
  idle(): Promise<void>;
}

/** After the page's last file, a moment for the files its scripts ask for next (a screen's chunk). */
const QUIET_MS = 30;
/** With no page and no call, the services start anyway: downloads and syncs run without a window. */
const FALLBACK_MS = 1000;
/** And whatever is being sent: a client reading a file slowly must not hold the studio back. */
const LATEST_MS = 3000;

/**
 * When browser mode starts its services. Loading them takes the thread for most of a second (every
 * service and the libraries they use), and nothing else is answered meanwhile: begun as soon as
 * the host listened, they held back the page's own files, and its first screen waited 300 ms for
 * its HTML. So they start when `wanted`, at a moment none of the page's files is being sent:
 * once their packages have loaded between the page's files (services-warm-up.ts; browser-mode.ts
 * then names them wanted), once a script of the page was sent (the first screen's files are all
 * asked for with it, build/first-screen-preload.ts, and the browser runs them meanwhile), or at the
 * first call that needs them; or FALLBACK_MS after the host listened (`arm`) when nobody asks;
 * LATEST_MS after it in any case. Before `arm`, only a request can start them, and none comes
 * before the host listens.
 */
export function servicesGate(
  start: () => void,
  {
    quietMs = QUIET_MS,
    fallbackMs = FALLBACK_MS,
    latestMs = LATEST_MS,
  }: { quietMs?: number; fallbackMs?: number; latestMs?: number } = {},
): ArmableGate {
  let started = false;
  let wanted = false;
  let sending = 0;
  let quiet: ReturnType<typeof setTimeout> | undefined;
  let fallback: ReturnType<typeof setTimeout> | undefined;
  let latest: ReturnType<typeof setTimeout> | undefined;
  let idleWaiters: (() => void)[] = [];
  const go = (whatever = false) => {
    if (started || (sending > 0 && !whatever)) return;
    started = true;
    clearTimeout(quiet);
    clearTimeout(fallback);
    clearTimeout(latest);
    start();
  };
  const consider = () => {
    clearTimeout(quiet);
    if (!started && wanted && sending === 0) quiet = setTimeout(() => go(), quietMs);
  };
  return {
    arm() {
      if (started || latest) return;
      fallback = setTimeout(() => {
        wanted = true;
        consider();
      }, fallbackMs);
      latest = setTimeout(() => go(true), latestMs);
    },
    sending() {
      sending++;
      clearTimeout(quiet);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        sending--;
        consider();
        if (sending === 0) {
          const waiters = idleWaiters;
          idleWaiters = [];
          waiters.forEach((resolve) => resolve());
        }
      };
    },
    idle() {
      // After the I/O already in: a request that has just arrived is being sent by then.
      return new Promise<void>((resolve) =>
        setImmediate(() => (sending === 0 ? resolve() : idleWaiters.push(resolve))),
      );
    },
    wanted() {
      if (started || wanted) return;
      wanted = true;
      consider();
    },
  };
}
