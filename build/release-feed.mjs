// `npm run release`'s last step: from electron-builder's dist/, the folder to upload to the update
// feed as is (installers, their blockmaps, latest*.yml / beta*.yml), each file checked against the
// sha512 and size the yml gives, and every installer against the size limit.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { INSTALLER_LIMIT_MB, MB } from './size-limits.mjs';

/** The channel files electron-builder writes (not its builder-debug.yml or effective config). */
const CHANNEL_FILE = /^(latest|beta|alpha)(-(linux|mac)(-[a-z0-9]+)?)?\.yml$/;
const INSTALLER = /\.(AppImage|deb|rpm|exe|dmg|zip)$/;

/**
 * The files a channel file lists, with their sha512 and size. electron-builder writes them as
 * `files:` then `- url:` / `sha512:` / `size:` lines; a full YAML parser is not needed for that.
 */
export function listedFiles(yml) {
  const files = [];
  let current;
  let inFiles = false;
  for (const raw of yml.split(/\r?\n/)) {
    if (/^files:\s*$/.test(raw)) {
      inFiles = true;
      continue;
    }
    if (inFiles && /^\S/.test(raw)) inFiles = false;
    if (!inFiles) continue;
    const entry = /^\s*(-\s+)?(url|sha512|size|blockMapSize):\s*(.+?)\s*$/.exec(raw);
    if (!entry) continue;
    if (entry[1]) files.push((current = {}));
    if (current)
      current[entry[2]] =
        entry[2] === 'url' || entry[2] === 'sha512' ? entry[3].replace(/^['"]|['"]$/g, '') : Number(entry[3]);
  }
  return files;
}

const sha512Of = async (path) =>
  createHash('sha512')
    .update(await readFile(path))
    .digest('base64');

/**
 * Copies the feed out of `dist` into `feed` (emptied first) and answers what it holds. Throws,
 * naming the files, when a listed file is missing or differs from its yml, or an installer is over
 * `limitMB`.
 */
export async function collectFeed(dist, feed, { limitMB = INSTALLER_LIMIT_MB } = {}) {
  const names = await readdir(dist);
  const channels = names.filter((n) => CHANNEL_FILE.test(n));
  if (channels.length === 0) {
    throw new Error(`No latest*.yml in ${dist}: was STUDIO_UPDATE_URL set for the build?`);
  }
  const problems = [];
  const wanted = new Set(channels);
  for (const channel of channels) {
    for (const file of listedFiles(await readFile(join(dist, channel), 'utf8'))) {
      const path = join(dist, file.url);
      const info = await stat(path).catch(() => undefined);
      if (!info) {
        problems.push(`${channel} lists ${file.url}, which is not in ${dist}`);
        continue;
      }
      if (info.size !== file.size)
        problems.push(`${file.url} is ${info.size} bytes; ${channel} says ${file.size}`);
      else if ((await sha512Of(path)) !== file.sha512)
        problems.push(`${file.url} does not match the sha512 in ${channel}`);
      wanted.add(file.url);
      if (names.includes(`${file.url}.blockmap`)) wanted.add(`${file.url}.blockmap`);
    }
  }
  // Installers no yml lists (a dmg, a deb) are uploaded too: the download page links to them.
  for (const name of names) if (INSTALLER.test(name)) wanted.add(name);
  const files = [];
  for (const name of [...wanted].sort()) {
    const bytes = (await stat(join(dist, name))).size;
    if (INSTALLER.test(name) && bytes > limitMB * MB) {
      problems.push(`${name} is ${(bytes / MB).toFixed(1)} MB, over the ${limitMB} MB limit`);
    }
    files.push({ name, bytes });
  }
  if (problems.length) throw new Error(`The release is not ready:\n  ${problems.join('\n  ')}`);
  await rm(feed, { recursive: true, force: true });
  await mkdir(feed, { recursive: true });
  for (const { name } of files) await copyFile(join(dist, name), join(feed, name));
  return files;
}
