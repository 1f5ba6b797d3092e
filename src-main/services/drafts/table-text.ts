import { StudioError } from '../../../src-shared/studio-error';

/**
 * The text of a table file as the spreadsheet that saved it meant it. Designers' files come from
 * Excel, Google Sheets, WPS and Numbers: UTF-8 with or without a BOM, UTF-16 with a BOM (Excel's
 * "Unicode Text"), GB18030 (Chinese Excel and WPS "CSV"), or Windows-1252 (Western Excel "CSV").
 * Only an encoding the bytes really fit is used: a guess that is wrong shows mojibake in prompts
 * that are then paid for, so anything else is refused with a message, never "repaired" with U+FFFD.
 */

export type TableEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030' | 'windows-1252';

export function notText(name: string, why: string): StudioError {
  return new StudioError({ code: 'STUDIO_IMPORT_NOT_TEXT', message: `${name} could not be read: ${why}` });
}

function decode(encoding: TableEncoding, bytes: Uint8Array): string | undefined {
  try {
    // fatal: a byte sequence the encoding does not have is an answer (not this encoding), not U+FFFD.
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** 1-based line of a byte offset, for a message the user can act on. */
function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/**
 * Counts well-formed UTF-8 characters and runs of broken bytes (one damage breaks a few bytes in a
 * row), and whether the file ends inside a character, as a file cut while it was copied does.
 */
function utf8Shape(bytes: Uint8Array): {
  valid: number;
  wide: number;
  broken: number;
  firstBroken: number;
  cutAtEnd: boolean;
} {
  let cutAtEnd = false;
  let lastBroken = -2;
  let valid = 0;
  let wide = 0;
  let broken = 0;
  let firstBroken = -1;
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    let ok = need > 0;
    for (let k = 1; ok && k <= need; k++) ok = i + k < bytes.length && (bytes[i + k]! & 0xc0) === 0x80;
    if (ok) {
      valid++;
      if (need > 1) wide++;
      i += need + 1;
    } else {
      if (firstBroken < 0) firstBroken = i;
      if (lastBroken !== i - 1) broken++;
      lastBroken = i;
      if (need > 1 && bytes.subarray(i + 1).every((c) => (c & 0xc0) === 0x80)) cutAtEnd = true;
      i++;
    }
  }
  return { valid, wide, broken, firstBroken, cutAtEnd };
}

/**
 * Text saved by Chinese Excel or WPS is GB2312's common characters: both bytes of a pair at 0xA1
 * or above. Western accented letters read as GBK pair with the ASCII letter after them, so text
 * whose pairs are mostly otherwise is not Chinese, even when every pair decodes.
 */
function looksLikeGb(bytes: Uint8Array): boolean {
  let common = 0;
  let other = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    const next = bytes[i + 1] ?? 0;
    if (b >= 0xa1 && next >= 0xa1) common++;
    else other++;
    // A four-byte GB18030 sequence has a digit second; its pair count does not matter here.
    i++;
  }
  return common > 0 && common >= other * 4;
}

/** UTF-16 saved without a BOM: ASCII characters leave a zero byte in every other place. */
function utf16WithoutBom(bytes: Uint8Array): TableEncoding | undefined {
  const sample = Math.min(bytes.length, 4096) & ~1;
  if (sample < 4) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = sample / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return undefined;
}

/** Control characters no spreadsheet writes into text (tab, line breaks and form feeds are text). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const BINARY_CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g;

function binaryLooking(text: string): boolean {
  if (text.includes('\u0000')) return true;
  const controls = text.match(BINARY_CONTROL)?.length ?? 0;
  return controls > Math.max(2, text.length / 200);
}

/** The table's text, without its BOM, and the encoding it was read in. */
export function tableText(name: string, bytes: Uint8Array): { text: string; encoding: TableEncoding } {
  const read = (encoding: TableEncoding, body: Uint8Array, damaged: string) => {
    const text = decode(encoding, body);
    if (text === undefined) throw notText(name, damaged);
    if (binaryLooking(text))
      throw notText(name, 'it is not text (an image, an archive or another binary file)');
    return { text: text.replace(/^\uFEFF/, ''), encoding };
  };
  const cutUtf16 = 'it is damaged: its UTF-16 text is cut or has broken characters';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return read('utf-16le', bytes, cutUtf16);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return read('utf-16be', bytes, cutUtf16);
  // Before UTF-8: UTF-16's zero bytes are well-formed UTF-8 too.
  const wide = utf16WithoutBom(bytes);
  if (wide) return read(wide, bytes, cutUtf16);
  const shape = utf8Shape(bytes);
  const brokenUtf8 = `it is damaged, or in an encoding the studio does not read: ${
    shape.broken ? `line ${lineAt(bytes, shape.firstBroken)}` : 'it'
  } has bytes that are not UTF-8 text`;
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (shape.broken === 0 || bom) return read('utf-8', bytes, brokenUtf8);
  // More well-formed three- and four-byte characters (Chinese, emoji) than broken ones: damaged
  // UTF-8, which read as GB18030 would be mojibake. GBK's pairs seldom make those by chance.
  if (shape.wide > shape.broken) throw notText(name, brokenUtf8);
  // A three- or four-byte lead with only its first bytes at the end: UTF-8 cut mid-character (a
  // Windows-1252 file ending in "é" without a line break is refused too; Excel ends with CRLF).
  if (shape.cutAtEnd) throw notText(name, 'it is cut short, inside its last character');
  // Chinese Excel's file is taken only when every pair decodes and most are common characters.
  // (Two-byte UTF-8, accented Latin, can decode as GBK too: a damaged file of it may read so.)
  if (looksLikeGb(bytes)) {
    const gb = decode('gb18030', bytes);
    if (gb !== undefined) return read('gb18030', bytes, '');
  }
  if (shape.valid > 0) throw notText(name, brokenUtf8);
  return read('windows-1252', bytes, 'its text encoding is not one the studio reads');
}
