import log from 'electron-log/node';
import type { LogMessage } from 'electron-log';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, parse } from 'node:path';

/** Rotated at about 5 MB; studio.1.log … studio.3.log keep the previous ones. */
const MAX_SIZE = 5 * 1024 * 1024;
export const LOG_FILES_KEPT = 3;
const KEEP = LOG_FILES_KEPT;

export const LOG_FILE_NAME = 'studio.log';

type Redactor = (text: string) => string;

/*
 * One logger for the process, apart from electron-log's default one (which a host or a library may
 * configure differently). Catch sites all over the services log through logCaught without being
 * handed a logger, so it lives here; until init is called the lines go nowhere.
 */
const logger = log.create({ logId: 'studio' });
logger.transports.console.level = false;
logger.transports.file.level = false;
/*
 * Every redactor handed to init, applied in turn: they only ever mask, so a later init (the desktop
 * host's early one, a second studio refused the data folder) can add one but never loosen them.
 */
const redactors: Redactor[] = [];
let folder: string | undefined;

function shift(file: string): void {
  const { dir, name, ext } = parse(file);
  const numbered = (n: number) => join(dir, `${name}.${n}${ext}`);
  rmSync(numbered(KEEP), { force: true });
  for (let n = KEEP - 1; n >= 1; n--) {
    if (existsSync(numbered(n))) renameSync(numbered(n), numbered(n + 1));
  }
  renameSync(file, numbered(1));
}

function textOf(value: unknown): string {
  if (value instanceof Error) {
    // The message and the code say what happened; a stack trace is for developers, kept short.
    const code = (value as NodeJS.ErrnoException).code;
    const stack = value.stack?.split('\n').slice(1, 4).join('\n') ?? '';
    return `${value.name}${code ? ` ${code}` : ''}: ${value.message}${stack ? `\n${stack}` : ''}`;
  }
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Starts writing the log into `<dir>/studio.log`. Every line, whatever its source, goes through
 * `redact` first, so a key quoted in an error message never reaches the disk.
 */
export function initStudioLog(dir: string, redact: Redactor, options: { maxSize?: number } = {}): void {
  folder = dir;
  if (!redactors.includes(redact)) redactors.push(redact);
  const file = join(dir, LOG_FILE_NAME);
  logger.transports.file.resolvePathFn = () => file;
  // Tests rotate at a few kilobytes rather than write 5 MB.
  logger.transports.file.maxSize = options.maxSize ?? MAX_SIZE;
  logger.transports.file.level = 'info';
  logger.transports.file.archiveLogFn = (current) => {
    try {
      shift(current.toString());
    } catch {
      // Another process holds the file (Windows): keep writing into the big one rather than lose lines.
    }
  };
  if (!logger.hooks.includes(redactHook)) logger.hooks.push(redactHook);
}

function redactHook(message: LogMessage): LogMessage {
  const redact = (text: string) => redactors.reduce((out, fn) => fn(out), text);
  return { ...message, data: message.data.map((value) => redact(textOf(value))) };
}

/** The folder the log is written to, once init has run: Help → Open log folder shows it. */
export function logFolder(): string | undefined {
  return folder;
}

/** Records an error the studio recovered from on its own, with where it happened. */
export function logCaught(context: string, err: unknown): void {
  logger.warn(`[${context}]`, err);
}

/** A line about the studio's life (start, stop), for reading a log after a problem. */
export function logInfo(text: string): void {
  logger.info(text);
}

/** The same, except for a file that is simply not there yet (a first run), which is no error. */
export function logCaughtUnlessMissing(context: string, err: unknown): void {
  if ((err as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT') logCaught(context, err);
}

let catching = false;

/**
 * Errors nothing caught (a throw in an event handler, a promise nobody awaited) go to the log with
 * their stack, and no further: Electron's own dialog for them would show a stack trace to the user.
 */
export function logUncaughtErrors(): void {
  if (catching) return;
  catching = true;
  process.on('uncaughtException', (err) => logger.error('[uncaught exception]', err));
  process.on('unhandledRejection', (reason) => logger.error('[unhandled rejection]', reason));
}

/** Render errors the window may report per minute: a component failing in a loop must not fill the disk. */
export const RENDERER_REPORTS_PER_MINUTE = 10;
let reportWindowStart = 0;
let reportsInWindow = 0;

/**
 * A part of the window that failed to draw, reported by its error boundary. The text comes from
 * the renderer, so it is cut short and, like every line, redacted; past the rate limit it is dropped.
 */
export function logRendererError(where: string, message: string, now = Date.now()): boolean {
  if (now - reportWindowStart >= 60_000) {
    reportWindowStart = now;
    reportsInWindow = 0;
  }
  if (reportsInWindow >= RENDERER_REPORTS_PER_MINUTE) return false;
  reportsInWindow++;
  logger.error(`[window: ${where.slice(0, 80)}]`, message.slice(0, 2000));
  return true;
}
