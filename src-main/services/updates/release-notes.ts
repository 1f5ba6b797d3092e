import { isLanguage, LANGUAGES } from '../../../src-shared/settings';
import type { ReleaseNotes } from '../../../src-shared/updates';

/** A line of the notes file that starts a language's part: `[en]` or `[zh-CN]`. */
const LANGUAGE_LINE = /^\s*\[([\w-]+)\]\s*$/;

/**
 * The feed's release notes split by language. A release's notes (build/release-notes.md, which
 * electron-builder copies into latest.yml) hold an `[en]` part and a `[zh-CN]` part; notes without
 * either marker are shown in every language. HTML tags are dropped: the banner shows text only, so
 * nothing from the feed can draw into the window.
 */
export function parseReleaseNotes(raw: unknown): ReleaseNotes {
  const text = flatten(raw)
    .replace(/<[^>]*>/g, '')
    .replace(/\r\n/g, '\n');
  const notes: ReleaseNotes = {};
  let current: keyof ReleaseNotes = 'any';
  const keys = [...LANGUAGES, 'any'] as const;
  const parts = Object.fromEntries(keys.map((k) => [k, [] as string[]])) as Record<
    keyof ReleaseNotes,
    string[]
  >;
  for (const line of text.split('\n')) {
    const marker = LANGUAGE_LINE.exec(line)?.[1];
    if (isLanguage(marker)) current = marker;
    else parts[current].push(line);
  }
  for (const key of keys) {
    const part = parts[key].join('\n').trim();
    if (part) notes[key] = part.slice(0, 20_000);
  }
  return notes;
}

/** electron-updater gives a string, or (with fullChangelog) a list of `{ version, note }`. */
function flatten(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  if (Array.isArray(raw)) {
    return raw
      .map((entry) => (entry && typeof entry === 'object' ? (entry as { note?: unknown }).note : undefined))
      .filter((note): note is string => typeof note === 'string')
      .join('\n');
  }
  return '';
}
