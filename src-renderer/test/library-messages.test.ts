import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en, enAtStart } from '../../src-shared/i18n/en';
import { enLibrary } from '../../src-shared/i18n/en-library';

const RENDERER = join(import.meta.dirname, '..');

/** The window's source files outside the Library's folder, tests apart. */
function outsideLibrary(dir = RENDERER): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ['library', 'test'].includes(relative(RENDERER, path)) ? [] : outsideLibrary(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Whether `name` is a message of `group`, or the stem of its plural forms (`stars` for `stars_one`). */
function isLibraryMessage(group: keyof typeof enLibrary, name: string): boolean {
  return Object.keys(enLibrary[group]).some((key) => key === name || key.startsWith(`${name}_`));
}

describe("the Library's English strings", () => {
  // They come with the Library's chunk (App.tsx, libraryMessagesLoaded), not with the window's
  // first script: a key of theirs anywhere else would show as a raw key until the Library had been
  // opened, or its chunk preloaded, in an English window. Strings such as 'library.query' are API
  // method names, not messages, and pass.
  it('are used only under src-renderer/library/', () => {
    const groups = Object.keys(enLibrary) as (keyof typeof enLibrary)[];
    const key = new RegExp(`[\`'"](${groups.join('|')})\\.(\\$\\{|[A-Za-z]\\w*)`, 'g');
    const used: string[] = [];
    for (const file of outsideLibrary())
      for (const [text, group, name] of readFileSync(file, 'utf8').matchAll(key))
        if (name === '${' || isLibraryMessage(group as keyof typeof enLibrary, name!))
          used.push(`${relative(RENDERER, file)}: ${text}`);
    expect(used).toEqual([]);
  });

  it('are not among the strings the window starts with, and are among all of English', () => {
    for (const group of Object.keys(enLibrary)) {
      expect(Object.keys(enAtStart)).not.toContain(group);
      expect(en).toHaveProperty(group);
    }
  });
});
