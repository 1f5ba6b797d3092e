import type {
  EventPayload,
  MethodInput,
  MethodOutput,
  StudioApi,
  StudioEvent,
  StudioMethod,
} from '../../src-shared/studio-api';
import { StudioError } from '../../src-shared/studio-error';
import { followEventStream } from './event-stream';

declare global {
  interface Window {
    /** Set by the desktop preload; absent in browser mode. */
    studio?: StudioApi;
  }
}

const TOKEN_KEY = 'studio.session-token';

/** Browser mode: the token arrives once in the URL fragment and lives for this tab's session. */
export function takeSessionToken(): string | undefined {
  const match = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  if (match) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]!));
    history.replaceState(null, '', `${window.location.pathname}${window.location.search}#/`);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

type Listener = (payload: unknown) => void;

/** Fired on window each time the event stream (re)connects, so screens can refetch what they missed. */
export const RECONNECTED_EVENT = 'studio-events-reconnected';

/** The browser-mode twin of the preload bridge: the same StudioApi over the loopback HTTP API. */
export function createHttpStudio(token: string): StudioApi {
  const listeners = new Map<string, Set<Listener>>();
  let markReady: () => void = () => undefined;
  // Calls wait (briefly) for the event stream, so no event a call causes can be missed.
  const streaming = Promise.race([
    new Promise<void>((resolve) => (markReady = resolve)),
    new Promise<void>((resolve) => setTimeout(resolve, 3000)),
  ]);
  // An <img> cannot send the token: this call trades it for the HttpOnly cookie that image
  // requests carry. Calls wait for it, so no image is asked for before it is set.
  const session = fetch('/api/session', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  }).catch(() => undefined);
  const ready = Promise.all([streaming, session]);

  void followEventStream({
    url: '/api/events',
    headers: { authorization: `Bearer ${token}` },
    onOpen: () => {
      markReady();
      window.dispatchEvent(new Event(RECONNECTED_EVENT));
    },
    onEvent: ({ event, data }) => {
      const wanted = event ? listeners.get(event) : undefined;
      if (!wanted?.size) return;
      let payload: unknown;
      try {
        payload = JSON.parse(data);
      } catch {
        // An event that does not parse is dropped alone; the stream and the events after it go on.
        return;
      }
      for (const l of wanted) l(payload);
    },
  });
  return {
    async call<M extends StudioMethod>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
      await ready;
      let res: Response;
      try {
        res = await fetch(`/api/${method}`, {
          // Ahead of the gallery's thumbnails, which are asked for at high priority too, and share
          // the browser's six connections to the host with the calls (and the event stream).
          priority: 'high',
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(input ?? {}),
        });
      } catch {
        // No message of its own: the notice explains the code in the window's language, and a
        // line in English under the Chinese one told a Chinese window nothing more.
        throw new StudioError({ code: 'STUDIO_OFFLINE', message: '', retryable: true });
      }
      const body = (await res.json().catch(() => ({}))) as { result?: MethodOutput<M>; error?: unknown };
      if (res.ok) return body.result as MethodOutput<M>;
      throw StudioError.from(body.error ?? { code: `HTTP_${res.status}`, message: res.statusText });
    },
    on<E extends StudioEvent>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as Listener);
      return () => set.delete(listener as Listener);
    },
  };
}

/** Wraps the desktop bridge so that failures are StudioErrors on both hosts. */
function wrapBridge(bridge: StudioApi): StudioApi {
  return {
    call: async (method, input) => {
      try {
        return await bridge.call(method, input ?? ({} as typeof input));
      } catch (err) {
        throw StudioError.from(err);
      }
    },
    on: (event, listener) => bridge.on(event, listener),
  };
}

export function connectStudio(): StudioApi | undefined {
  if (window.studio) return wrapBridge(window.studio);
  const token = takeSessionToken();
  return token ? createHttpStudio(token) : undefined;
}
