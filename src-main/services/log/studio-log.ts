import log from 'electron-log/node';
import type { LogMessage } from 'electron-log';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, parse } from 'node:path';

/** Rotated at about 5 MB; studio.1.log … studio.3.log keep the previous ones. */
const MAX_SIZE = 5 * 1024 * 1024;
const KEEP = 3;

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
let redactor: Redactor = (text) => text;
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
export function initStudioLog(dir: string, redact: Redactor): void {
  folder = dir;
  redactor = redact;
  const file = join(dir, LOG_FILE_NAME);
  logger.transports.file.resolvePathFn = () => file;
  logger.transports.file.maxSize = MAX_SIZE;
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
  return { ...message, data: message.data.map((value) => redactor(textOf(value))) };
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
