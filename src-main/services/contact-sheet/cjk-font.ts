import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Noto Sans SC (SIL Open Font License), as @fontsource ships it: about a hundred small files, each
 * covering a range of characters (its CSS says which). A contact sheet registers the files its
 * text needs and the PDF embeds only the glyphs it uses, so a Chinese prompt costs tens of
 * kilobytes, and the sheet looks the same on every machine: no system font is looked for.
 */
interface Face {
  file: string;
  ranges: [number, number][];
}

let faces: Face[] | undefined;

function loadFaces(): Face[] {
  if (faces) return faces;
  const require = createRequire(import.meta.url);
  const css = require.resolve('@fontsource/noto-sans-sc/400.css');
  const dir = dirname(css);
  faces = [
    ...readFileSync(css, 'utf8').matchAll(
      /url\(\.\/(files\/[\w-]+-400-normal\.woff)\) format\('woff'\);\s*unicode-range: ([^;]+);/g,
    ),
  ].map((m) => ({
    file: join(dir, m[1]!),
    ranges: m[2]!.split(',').map((range) => {
      const [from, to] = range.trim().replace(/^U\+/i, '').split('-');
      return [parseInt(from!, 16), parseInt(to ?? from!, 16)] as [number, number];
    }),
  }));
  return faces;
}

/** A stretch of text one font file can draw. `font` is undefined where no file has the character. */
export interface TextRun {
  font: string | undefined;
  text: string;
}

/** Splits text into runs by the font file that holds each character. */
export function fontRuns(text: string): TextRun[] {
  const all = loadFaces();
  const runs: TextRun[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    // A space belongs with whatever surrounds it: switching font for it would split words.
    const face =
      ch === ' ' && runs.length ? undefined : all.find((f) => f.ranges.some(([a, b]) => cp >= a && cp <= b));
    const font = ch === ' ' && runs.length ? runs.at(-1)!.font : face?.file;
    if (runs.length && runs.at(-1)!.font === font) runs.at(-1)!.text += ch;
    else runs.push({ font, text: ch });
  }
  return runs;
}

/** The file that draws Latin text, for labels and numbers. */
export function latinFont(): string {
  return fontRuns('A')[0]!.font!;
}
