import { protocol } from 'electron';
import { Readable } from 'node:stream';
import { IMAGE_SCHEME } from '../../src-shared/image-paths';
import type { ImageRoutes } from '../services/library/images/image-routes';
import { logCaught } from '../services/log/studio-log';

/**
 * Must run before the app is ready: a standard, secure, streaming scheme, so <img> and fetch load
 * from it like https, and large originals stream instead of being read whole.
 */
export function registerImageScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: IMAGE_SCHEME,
      privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true },
    },
  ]);
}

/**
 * `studio-image://img/images/…` answers from the same image routes as browser mode's GET /images/….
 * Handled from before the services have started (the window opens first): requests wait for them.
 */
export function handleImageScheme(routes: Promise<ImageRoutes>): void {
  protocol.handle(IMAGE_SCHEME, async (request) => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405 });
      const images = await routes;
      const answer = await images.answer({
        path: new URL(request.url).pathname,
        ifNoneMatch: request.headers.get('if-none-match') ?? undefined,
        signal: request.signal,
      });
      if ('code' in answer) return new Response(answer.message, { status: answer.status });
      if (answer.status === 304 || request.method === 'HEAD')
        return new Response(null, { status: answer.status, headers: answer.headers });
      const body = Readable.toWeb(answer.body()) as ReadableStream<Uint8Array>;
      return new Response(body, { status: 200, headers: answer.headers });
    } catch (err) {
      logCaught(`image ${request.url}`, err);
      return new Response(null, { status: 500 });
    }
  });
}
