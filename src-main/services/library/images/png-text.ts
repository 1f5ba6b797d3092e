import { crc32 } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** An iTXt chunk: UTF-8 text, so Chinese prompts survive (tEXt is Latin-1 only). */
function itxt(keyword: string, text: string): Buffer {
  return chunk(
    'iTXt',
    Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0, 0, 0, 0, 0]), Buffer.from(text, 'utf8')]),
  );
}

/**
 * Writes the prompt and the parameters into a PNG's text chunks, right after IHDR, so the image
 * carries them into other tools. Existing chunks with the same keywords are replaced.
 */
export function embedPngText(png: Buffer, fields: Record<string, string>): Buffer {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  const chunks: Buffer[] = [];
  let at = 8;
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const end = at + 12 + length;
    const body = png.subarray(at + 8, at + 8 + length);
    const keyword =
      type === 'iTXt' || type === 'tEXt' ? body.subarray(0, body.indexOf(0)).toString('latin1') : undefined;
    if (!(keyword && keyword in fields)) chunks.push(png.subarray(at, end));
    if (type === 'IHDR') for (const [k, v] of Object.entries(fields)) chunks.push(itxt(k, v));
    at = end;
    if (type === 'IEND') break;
  }
  return Buffer.concat([SIGNATURE, ...chunks]);
}
