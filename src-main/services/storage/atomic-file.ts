// The fs module object, not named imports: its methods are looked up at each call, as
// write-file-atomic does, so one instrumented fs sees every fsync (the durability tests do).
import fs from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import writeFileAtomicLib from 'write-file-atomic';

/**
 * Where a folder cannot be opened or synced (Windows), the rename is as durable as it gets; a
 * folder already gone (emptied staging) has nothing left to flush.
 */
const DIR_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EPERM', 'EINVAL', 'EACCES', 'ENOTSUP', 'ENOENT']);

function unsupported(err: unknown): boolean {
  return DIR_SYNC_UNSUPPORTED.has((err as NodeJS.ErrnoException).code ?? '');
}

const asBuffer = (data: string | Uint8Array): string | Buffer =>
  typeof data === 'string' || Buffer.isBuffer(data)
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/**
 * Flushes a folder's entries to disk: after a rename, the new name survives a power cut only
 * once its folder is synced.
 */
export async function fsyncDir(dir: string): Promise<void> {
  let fd: number | undefined;
  try {
    fd = await promisify(fs.open)(dir, 'r');
    await promisify(fs.fsync)(fd);
  } catch (err) {
    if (!unsupported(err)) throw err;
  } finally {
    if (fd !== undefined) await promisify(fs.close)(fd);
  }
}

export function fsyncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (err) {
    if (!unsupported(err)) throw err;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Makes a folder (and any missing parents) and flushes each new folder's parent before it is used:
 * a file acknowledged as written in a new folder must not vanish with its folder's name after a
 * power cut. Folders that were already there cost nothing.
 */
export async function makeDir(dir: string): Promise<void> {
  const first = await fs.promises.mkdir(dir, { recursive: true });
  if (first === undefined) return;
  for (const made of madeBetween(first, dir)) await fsyncDir(dirname(made));
}

export function makeDirSync(dir: string): void {
  const first = fs.mkdirSync(dir, { recursive: true });
  if (first === undefined) return;
  for (const made of madeBetween(first, dir)) fsyncDirSync(dirname(made));
}

/** The folders mkdir made, from the deepest up to the first it had to make. */
function madeBetween(first: string, deepest: string): string[] {
  const made: string[] = [];
  for (let d = resolve(deepest); ; d = dirname(d)) {
    made.push(d);
    if (d === resolve(first) || dirname(d) === d) return made;
  }
}

/** Flushes a file still open for writing, through the fs module like every other fsync here. */
export function fsyncHandle(fd: number): Promise<void> {
  return promisify(fs.fsync)(fd);
}

/** Flushes one file written by other means (a copy, a stream) before it is published. */
export async function fsyncFile(file: string): Promise<void> {
  const fd = await promisify(fs.open)(file, 'r');
  try {
    await promisify(fs.fsync)(fd);
  } finally {
    await promisify(fs.close)(fd);
  }
}

/**
 * Flushes every file and folder under `root`, deepest first, a few at a time: a folder about to be
 * published by one rename must be on disk whole before its name is.
 */
export async function fsyncTree(root: string): Promise<void> {
  const entries = await fs.promises.readdir(root, { withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(root, e.name));
  for (const dir of entries.filter((e) => e.isDirectory())) await fsyncTree(join(root, dir.name));
  for (let i = 0; i < files.length; i += 8) await Promise.all(files.slice(i, i + 8).map(fsyncFile));
  await fsyncDir(root);
}

/**
 * Writes beside the target, flushes the file, renames it over the target and flushes the folder:
 * a reader never sees half a file, and after a crash or power cut the file is the old one or the
 * new one, never empty.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  { createFolder = true, ...options }: { mode?: number; createFolder?: boolean } = {},
): Promise<void> {
  if (createFolder) await makeDir(dirname(path));
  await writeFileAtomicLib(path, asBuffer(data), { fsync: true, ...options });
  await fsyncDir(dirname(path));
}

export function writeFileAtomicSync(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): void {
  makeDirSync(dirname(path));
  writeFileAtomicLib.sync(path, asBuffer(data), { fsync: true, ...options });
  fsyncDirSync(dirname(path));
}

export function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}
