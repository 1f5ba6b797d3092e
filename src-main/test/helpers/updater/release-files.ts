import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';

/** The block size of these test blockmaps; electron-builder's own cut by content, which changes nothing here. */
const BLOCK = 16 * 1024;

/** Reproducible bytes: the same seed, the same "installer". */
export function payload(seed: number, size: number): Buffer {
  const out = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** The next version of an installer: the same bytes but for `changedBlocks` blocks. */
export function nextVersionOf(old: Buffer, changedBlocks: number[], seed: number): Buffer {
  const next = Buffer.from(old);
  for (const block of changedBlocks) payload(seed + block, BLOCK).copy(next, block * BLOCK);
  return next;
}

const sha512 = (data: Buffer) => createHash('sha512').update(data).digest('base64');

/** A blockmap in electron-builder's format (version 2, one file named "file"). */
function blockMapOf(data: Buffer): Buffer {
  const checksums: string[] = [];
  const sizes: number[] = [];
  for (let offset = 0; offset < data.length; offset += BLOCK) {
    const block = data.subarray(offset, offset + BLOCK);
    checksums.push(createHash('sha256').update(block).digest('base64'));
    sizes.push(block.length);
  }
  return Buffer.from(
    JSON.stringify({ version: '2', files: [{ name: 'file', offset: 0, checksums, sizes }] }),
  );
}

export interface Artifact {
  /** The file name in the feed, as electron-builder's artifactName makes it. */
  name: string;
  bytes: Buffer;
  /**
   * `embedded`: an AppImage's blockmap, deflated at the file's end with its length (electron-builder
   * does the same); `separate`: a `<name>.blockmap` beside it (NSIS); `none`: a deb.
   */
  blockMap: 'embedded' | 'separate' | 'none';
}

export interface Release {
  version: string;
  /** `latest-linux.yml`, `beta.yml`… */
  channelFile: string;
  artifact: Artifact;
  stagingPercentage?: number;
  releaseNotes?: string;
}

/**
 * Writes a release into a feed folder as `electron-builder --publish never` would: the installer,
 * its blockmap, and the channel file with sha512 and size. Answers the bytes as served.
 */
export function writeRelease(feedDir: string, release: Release): Buffer {
  mkdirSync(feedDir, { recursive: true });
  const { artifact } = release;
  let bytes = artifact.bytes;
  let blockMapSize: number | undefined;
  if (artifact.blockMap === 'embedded') {
    const map = deflateRawSync(blockMapOf(artifact.bytes));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(map.length, 0);
    bytes = Buffer.concat([artifact.bytes, map, length]);
    blockMapSize = map.length;
  } else if (artifact.blockMap === 'separate') {
    writeFileSync(join(feedDir, `${artifact.name}.blockmap`), gzipSync(blockMapOf(artifact.bytes)));
  }
  writeFileSync(join(feedDir, artifact.name), bytes);
  const file = {
    url: artifact.name,
    sha512: sha512(bytes),
    size: bytes.length,
    ...(blockMapSize ? { blockMapSize } : {}),
  };
  const info = {
    version: release.version,
    files: [file],
    path: artifact.name,
    sha512: file.sha512,
    releaseDate: '2026-11-20T10:00:00.000Z',
    ...(release.stagingPercentage !== undefined ? { stagingPercentage: release.stagingPercentage } : {}),
    ...(release.releaseNotes ? { releaseNotes: release.releaseNotes } : {}),
  };
  // JSON is YAML: electron-updater reads it with js-yaml all the same.
  writeFileSync(join(feedDir, release.channelFile), JSON.stringify(info, null, 2));
  return bytes;
}

/** The channel file of this machine's Linux builds, as electron-updater names it (`latest-linux-arm64.yml`…). */
export function linuxChannelFile(channel: string): string {
  return `${channel}-linux${process.arch === 'x64' ? '' : `-${process.arch}`}.yml`;
}
