import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectFeed, listedFiles } from '../release-feed.mjs';

const sha512 = (data: Buffer) => createHash('sha512').update(data).digest('base64');

/** A dist/ as `electron-builder --publish never` leaves it with a feed configured, for Linux. */
function dist(appImage = Buffer.alloc(3000, 7), listedSha = sha512(appImage)): string {
  const dir = mkdtempSync(join(tmpdir(), 'studio-dist-'));
  writeFileSync(join(dir, 'batch-image-studio-x86_64.AppImage'), appImage);
  writeFileSync(join(dir, 'batch-image-studio_0.2.0_amd64.deb'), Buffer.alloc(2000, 1));
  writeFileSync(join(dir, 'builder-debug.yml'), 'x: 1\n');
  writeFileSync(
    join(dir, 'latest-linux.yml'),
    [
      'version: 0.2.0',
      'files:',
      '  - url: batch-image-studio-x86_64.AppImage',
      `    sha512: ${listedSha}`,
      `    size: ${appImage.length}`,
      '    blockMapSize: 120',
      'path: batch-image-studio-x86_64.AppImage',
      `sha512: ${listedSha}`,
      "releaseDate: '2026-11-26T10:00:00.000Z'",
      '',
    ].join('\n'),
  );
  return dir;
}

describe('the release folder', () => {
  it('reads the files a channel file lists', () => {
    expect(
      listedFiles('version: 1\nfiles:\n  - url: a.exe\n    sha512: "x=="\n    size: 3\npath: a.exe\n'),
    ).toEqual([{ url: 'a.exe', sha512: 'x==', size: 3 }]);
  });

  it('holds the installers and the channel file, checked, and nothing of the build', async () => {
    const from = dist();
    const files = await collectFeed(from, join(from, 'feed'));
    expect(files.map((f) => f.name)).toEqual([
      'batch-image-studio-x86_64.AppImage',
      'batch-image-studio_0.2.0_amd64.deb',
      'latest-linux.yml',
    ]);
    expect(readdirSync(join(from, 'feed')).sort()).toEqual(files.map((f) => f.name));
  });

  it('refuses a file that differs from its sha512', async () => {
    const from = dist(Buffer.alloc(3000, 7), sha512(Buffer.alloc(3000, 8)));
    await expect(collectFeed(from, join(from, 'feed'))).rejects.toThrow(/does not match the sha512/);
  });

  it('refuses an installer over the size limit', async () => {
    const from = dist();
    await expect(collectFeed(from, join(from, 'feed'), { limitMB: 0.0025 })).rejects.toThrow(
      /batch-image-studio-x86_64\.AppImage is 0\.0 MB, over the 0\.0025 MB limit/,
    );
  });

  it('refuses a build made without a feed', async () => {
    const from = mkdtempSync(join(tmpdir(), 'studio-dist-'));
    await expect(collectFeed(from, join(from, 'feed'))).rejects.toThrow(/STUDIO_UPDATE_URL/);
  });
});
