/**
 * Bytes of a table as each spreadsheet program saves it. Node encodes only UTF-8, so GB18030 (Chinese
 * Excel, WPS) and Windows-1252 (Western Excel) are written through tables built from the decoder:
 * the bytes the studio reads back are the bytes the decoder defines, not a second opinion.
 */

export type SavedEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'gb18030' | 'windows-1252';

let gbTable: Map<string, number[]> | undefined;
let latinTable: Map<string, number> | undefined;

/** Every two-byte GBK character: lead 0x81-0xFE, trail 0x40-0xFE except 0x7F. */
function gb(): Map<string, number[]> {
  if (gbTable) return gbTable;
  gbTable = new Map();
  const decoder = new TextDecoder('gb18030');
  for (let lead = 0x81; lead <= 0xfe; lead++)
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      const char = decoder.decode(new Uint8Array([lead, trail]));
      if (char.length === 1 && char !== '\uFFFD' && !gbTable.has(char)) gbTable.set(char, [lead, trail]);
    }
  return gbTable;
}

function latin(): Map<string, number> {
  if (latinTable) return latinTable;
  latinTable = new Map();
  const decoder = new TextDecoder('windows-1252');
  for (let b = 0x80; b <= 0xff; b++) latinTable.set(decoder.decode(new Uint8Array([b])), b);
  return latinTable;
}

function legacy(text: string, wide: (char: string) => number[] | undefined): Buffer {
  const out: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x80) out.push(code);
    else {
      const bytes = wide(char);
      if (!bytes) throw new Error(`no byte for ${char} (U+${code.toString(16)}) in this encoding`);
      out.push(...bytes);
    }
  }
  return Buffer.from(out);
}

/** Whether every character of the text has bytes in the encoding (GB18030's four-byte forms aside). */
export function encodable(text: string, encoding: SavedEncoding): boolean {
  if (encoding === 'gb18030') return [...text].every((c) => c.charCodeAt(0) < 0x80 || gb().has(c));
  if (encoding === 'windows-1252') return [...text].every((c) => c.charCodeAt(0) < 0x80 || latin().has(c));
  return true;
}

export function saveAs(text: string, encoding: SavedEncoding): Buffer {
  switch (encoding) {
    case 'utf-8':
      return Buffer.from(text, 'utf8');
    case 'utf-8-bom':
      return Buffer.from(`\uFEFF${text}`, 'utf8');
    case 'utf-16le':
      return Buffer.from(`\uFEFF${text}`, 'utf16le');
    case 'utf-16be':
      return Buffer.from(`\uFEFF${text}`, 'utf16le').swap16();
    case 'gb18030':
      return legacy(text, (c) => gb().get(c));
    case 'windows-1252':
      return legacy(text, (c) => {
        const b = latin().get(c);
        return b === undefined ? undefined : [b];
      });
  }
}
