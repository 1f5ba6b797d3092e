// `npm run release`: the installers for this platform and the update feed's files, in dist/feed/,
// ready to upload as is to the static host STUDIO_UPDATE_URL points at. See README, "Installers".
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { collectFeed } from './release-feed.mjs';
import { INSTALLER_LIMIT_MB, MB } from './size-limits.mjs';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!process.env.STUDIO_UPDATE_URL?.trim()) {
  console.error(
    'STUDIO_UPDATE_URL is not set: installed copies of this release would never find their updates.\n' +
      "Set it to the feed folder's address, e.g. STUDIO_UPDATE_URL=https://downloads.example.com/studio/ npm run release",
  );
  process.exit(1);
}

run('npm', ['run', 'icons']);
run('npm', ['run', 'build']);
// --publish never: electron-builder writes the feed files but uploads nothing; the folder is copied.
run('npx', ['electron-builder', '--config', 'electron-builder.config.ts', '--publish', 'never']);

const feed = join('dist', 'feed');
try {
  const files = await collectFeed('dist', feed);
  console.log(
    `\nUpload ${feed}/ as is to ${process.env.STUDIO_UPDATE_URL} (installers ≤ ${INSTALLER_LIMIT_MB} MB each):`,
  );
  for (const { name, bytes } of files) console.log(`  ${(bytes / MB).toFixed(1).padStart(7)} MB  ${name}`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
