import { createReadStream, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { StudioError } from '../../../../src-shared/studio-error';
import { logCaught } from '../../log/studio-log';
import { THUMB_SIZES } from '../../../../src-shared/image-paths';
import { THUMB_SIZE, type ThumbnailService } from './thumbnails';

/** What the image routes need from the rest of the studio; each part throws or answers undefined when it has no such image. */
interface ImageSources {
  thumbnails: ThumbnailService;
  library: {
    /** The folder every library path must stay inside. */
    root(): string;
    file(id: string): Promise<{ path: string; mime: string }>;
  };
  realtime: {
    imageFile(id: string, which: 'result' | 'input', index: number): { file: string; mime: string };
  };
  batchPreview(batchId: string, customId: string): Promise<{ webp: Buffer }>;
  reference: { fileOf(id: string): string | undefined; root: string };
}

interface ImageRequest {
  /** The URL's path, still percent-encoded: `/images/library/<id>/thumb/256`. */
  path: string;
  ifNoneMatch?: string;
  /** Aborted when the asker gives up (a cell scrolled away): queued thumbnail work is dropped. */
  signal?: AbortSignal;
}

type ImageAnswer =
  | { status: 200; headers: Record<string, string>; body: () => Readable }
  | { status: 304; headers: Record<string, string> }
  | { status: 400 | 404; code: string; message: string };

/** Thumbnails are named by their source's size and time, so a URL's answer only changes with its ETag. */
const SHORT_CACHE = 'private, max-age=3600';
/** Content-addressed (references by hash) or never rewritten (a generation's result): cached for good. */
const IMMUTABLE = 'private, max-age=31536000, immutable';

const PATTERNS = {
  library: /^\/images\/library\/([^/]+)\/(original|thumb\/(\d+))$/,
  realtime: /^\/images\/realtime\/([\w-]{1,100})\/(result|input)\/(\d{1,2})$/,
  preview: /^\/images\/batch-preview\/([^/]+)\/([^/]+)$/,
  reference: /^\/images\/references\/([0-9a-f]{64})\/thumb$/,
};

function decode(segment: string): string | undefined {
  try {
    const value = decodeURIComponent(segment);
    // No id ever holds a control character or a NUL; one that does is an attack, not a typo.
    const clean = value.length <= 1000 && [...value].every((c) => c.charCodeAt(0) >= 0x20);
    return value && clean ? value : undefined;
  } catch {
    return undefined;
  }
}

function inside(root: string, file: string): boolean {
  const r = resolve(root);
  const f = resolve(file);
  return f.startsWith(r + sep);
}

function notFound(message = 'There is no such image.'): ImageAnswer {
  return { status: 404, code: 'STUDIO_IMAGE_NOT_FOUND', message };
}

function fileAnswer(
  file: string,
  mime: string,
  cache: string,
  request: ImageRequest,
  etagOf?: string,
): ImageAnswer {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return notFound();
  const etag = `"${etagOf ?? `${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}`}"`;
  const headers = {
    etag,
    'last-modified': stat.mtime.toUTCString(),
    'cache-control': cache,
  };
  if (request.ifNoneMatch?.split(/\s*,\s*/).includes(etag)) return { status: 304, headers };
  return {
    status: 200,
    headers: { ...headers, 'content-type': mime, 'content-length': String(stat.size) },
    body: () => createReadStream(file),
  };
}

/**
 * Images by URL, for both hosts: the desktop's `studio-image:` protocol and browser mode's GET
 * routes answer from here, so no image travels as base64 in JSON. Every id is looked up in the
 * studio's own records (never joined onto a path as given), and every file served is checked to
 * be inside the library, the realtime history or the reference store.
 */
export class ImageRoutes {
  constructor(private sources: ImageSources) {}

  async answer(request: ImageRequest): Promise<ImageAnswer> {
    try {
      return await this.route(request);
    } catch (err) {
      if (err instanceof StudioError) return notFound(err.message);
      // Nobody is waiting for this answer any more: nothing went wrong, nothing to log.
      if (request.signal?.aborted) return notFound('The image was no longer wanted.');
      logCaught(`image ${request.path}`, err);
      return notFound('The image could not be read.');
    }
  }

  private async route(request: ImageRequest): Promise<ImageAnswer> {
    const { path } = request;
    let m = PATTERNS.library.exec(path);
    if (m) {
      const id = decode(m[1]!);
      if (!id) return { status: 400, code: 'STUDIO_BAD_IMAGE_ID', message: 'That is not an image id.' };
      const { path: file, mime } = await this.sources.library.file(id);
      if (!inside(this.sources.library.root(), file)) return notFound();
      if (m[2] === 'original') return fileAnswer(file, mime, SHORT_CACHE, request);
      const size = Number(m[3]);
      if (!(THUMB_SIZES as readonly number[]).includes(size))
        return notFound('There is no such thumbnail size.');
      const thumb = await this.sources.thumbnails.fileFor(file, size, request.signal);
      return fileAnswer(thumb, 'image/webp', SHORT_CACHE, request, this.sources.thumbnails.keyOf(file, size));
    }
    m = PATTERNS.realtime.exec(path);
    if (m) {
      const { file, mime } = this.sources.realtime.imageFile(m[1]!, m[2] as 'result' | 'input', Number(m[3]));
      return fileAnswer(file, mime, IMMUTABLE, request);
    }
    m = PATTERNS.preview.exec(path);
    if (m) {
      const batchId = decode(m[1]!);
      const customId = decode(m[2]!);
      if (!batchId || !customId)
        return { status: 400, code: 'STUDIO_BAD_IMAGE_ID', message: 'That is not an image id.' };
      const { webp } = await this.sources.batchPreview(batchId, customId);
      return {
        status: 200,
        headers: {
          'content-type': 'image/webp',
          'content-length': String(webp.length),
          'cache-control': 'private, max-age=600',
        },
        body: () => Readable.from([webp]),
      };
    }
    m = PATTERNS.reference.exec(path);
    if (m) {
      const file = this.sources.reference.fileOf(m[1]!);
      if (!file || !inside(this.sources.reference.root, file)) return notFound();
      const thumb = await this.sources.thumbnails.fileFor(file, THUMB_SIZE);
      return fileAnswer(
        thumb,
        'image/webp',
        IMMUTABLE,
        request,
        this.sources.thumbnails.keyOf(file, THUMB_SIZE),
      );
    }
    return notFound();
  }
}
