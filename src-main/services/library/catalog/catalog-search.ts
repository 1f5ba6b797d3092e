import { searchTerms } from './search-terms';

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const CJK_RUNS = /[\u3400-\u9fff\uf900-\ufaff]+/g;

/** An FTS5 string literal: the words are matched as they are typed, never as query syntax. */
const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

// What the two full-text indexes hold for a row is made here, and made again, the same, to take the
// row out of them (catalog-folder-rows.ts): changing it (or search-terms.ts) bumps catalog-db.ts's
// SCHEMA_VERSION, so no catalog holds terms made the old way.
const searchable = (image: { prompt: string; taskName: string; customId: string }) =>
  `${image.prompt}\n${image.taskName}\n${image.customId}`;

/**
 * The text the trigram index holds for one image: its Chinese (and other CJK) runs. Latin words
 * are found faster by the word index; a trigram index of every prompt would triple the catalog's
 * build time for matches inside words nobody asked for.
 */
export function cjkText(image: { prompt: string; taskName: string; customId: string }): string {
  return (searchable(image).match(CJK_RUNS) ?? []).join('\n');
}

/** What the word index holds: Latin words, and Chinese single characters and pairs. */
export function wordTerms(image: { prompt: string; taskName: string; customId: string }): string {
  return [...new Set(searchTerms(searchable(image)))].join(' ');
}

/**
 * A search box's text as SQL conditions on `images.rowid`, every word required. Chinese has no
 * spaces: a Chinese word of three characters or more goes to the trigram index, which finds it
 * anywhere ("青花瓷" in "一只青花瓷杯"). The trigram index cannot answer shorter ones, and Chinese
 * words are often two characters: those go to the word index of single characters and pairs.
 * Latin words go to the word index too, by their start ("whal" finds "whale").
 */
export function searchMatches(search: string | undefined): { sql: string; param: string }[] {
  const trigram = (text: string) => ({
    sql: 'select rowid from images_text where images_text match ?',
    param: phrase(text),
  });
  const word = (term: string) => ({
    sql: 'select rowid from images_terms where images_terms match ?',
    param: CJK.test(term) ? phrase(term) : `${phrase(term)}*`,
  });
  const words = (search ?? '')
    .toLowerCase()
    .split(/\s+/)
    // Quotes and brackets around a word are how people type, not part of what they look for.
    .map((w) => w.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, ''))
    .filter(Boolean);
  return words.flatMap((w) => {
    if (CJK.test(w) && [...w].length >= 3) return [trigram(w)];
    // A Chinese pair is indexed whole: its single characters add nothing to it.
    if (/^[\u3400-\u9fff\uf900-\ufaff]{1,2}$/.test(w)) return [word(w)];
    return searchTerms(w).map(word);
  });
}
