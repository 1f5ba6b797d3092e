import { loadTokenizer } from '../lazy-imports';

/** The most characters counted at once. */
const PIECE = 200;
const SPACE = /\s/;
const WORD = /[\p{L}\p{N}]/u;

/**
 * Where cl100k's own splitting cuts text anyway: before a space that ends a word, and before a
 * mark that ends one (a mark joins the letters after it, as "：柔和"). A count in pieces cut only
 * there is the count of the whole.
 */
function splitsBefore(text: string, at: number): boolean {
  const here = text[at]!;
  const before = text[at - 1]!;
  // A mark keeps the line breaks after it ("...\n\n" is one piece to the tokenizer).
  if (here === '\n' || here === '\r') return WORD.test(before);
  return SPACE.test(here) ? !SPACE.test(before) : !WORD.test(here) && WORD.test(before);
}

/**
 * The tokens of a text, counted a piece at a time. cl100k's byte-pair merging takes time quadratic
 * in a run the tokenizer does not split: 20,000 Chinese characters took 1.8 s, and one row of
 * 70,000 held main's thread, and every window's calls, for over 30 s. Pieces end where the
 * tokenizer splits text anyway, so ordinary text counts exactly; a run with no such place, cut
 * every 200 characters, may count a token more at a cut.
 */
export async function loadTokenCounter(): Promise<(text: string) => number> {
  const count = await loadTokenizer();
  return (text) => {
    let total = 0;
    for (let at = 0; at < text.length;) {
      let end = Math.min(text.length, at + PIECE);
      if (end < text.length) {
        let cut = end;
        while (cut > at + 1 && !splitsBefore(text, cut)) cut--;
        if (cut > at + 1) end = cut;
        // Never between the two halves of a character outside the BMP.
        else if (/[\uDC00-\uDFFF]/.test(text[end]!)) end--;
      }
      total += count(text.slice(at, end));
      at = end;
    }
    return total;
  };
}
