// A stand-in for Electron's Linux distribution, so the packaging check runs offline: electron-builder
// cannot download Electron here, and the check is about what electron-builder does with our config,
// not about Electron itself. The "executable" is a shell script that says what it is and carries the
// fuse wire that @electron/fuses looks for, so the fuses electron-builder flips can be read back.
import { FuseV1Options } from '@electron/fuses';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** @electron/fuses finds the wire right after this marker (see its constants.js). */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/** A fuse's state on the wire: the ASCII digit '0' (off) or '1' (on), as @electron/fuses reads it. */
export const FUSE_OFF = '0'.charCodeAt(0);
export const FUSE_ON = '1'.charCodeAt(0);

/**
 * Electron's own defaults, the opposite of what our config asks for wherever it asks: a fuse read
 * back with the configured value can only have been flipped by the packaging.
 */
export const ELECTRON_DEFAULT_FUSES: Record<FuseV1Options, number> = {
  [FuseV1Options.RunAsNode]: FUSE_ON,
  [FuseV1Options.EnableCookieEncryption]: FUSE_OFF,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: FUSE_ON,
  [FuseV1Options.EnableNodeCliInspectArguments]: FUSE_ON,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: FUSE_OFF,
  [FuseV1Options.OnlyLoadAppFromAsar]: FUSE_OFF,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: FUSE_OFF,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: FUSE_ON,
};

/** Fuse wire v1: the sentinel, version byte 1, the number of fuses, then one '0'/'1' byte per fuse. */
function fuseWire(): Buffer {
  const states = Object.keys(ELECTRON_DEFAULT_FUSES)
    .map(Number)
    .sort((a, b) => a - b)
    .map((fuse) => ELECTRON_DEFAULT_FUSES[fuse as FuseV1Options]);
  return Buffer.concat([Buffer.from(FUSE_SENTINEL, 'latin1'), Buffer.from([1, states.length, ...states])]);
}

/** Writes the stand-in distribution into `dir` (named electron-standin-dist by the caller). */
export async function makeElectronStandin(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const executable = Buffer.concat([
    Buffer.from(
      '#!/bin/sh\n' +
        '# Electron stand-in for an offline packaging check (build/package-check). Not Electron.\n# ',
    ),
    fuseWire(),
    Buffer.from(
      '\necho "This is an Electron stand-in made for a packaging check, not Electron." >&2\nexit 1\n',
    ),
  ]);
  await writeFile(join(dir, 'electron'), executable);
  await chmod(join(dir, 'electron'), 0o755);
  // Electron's dist ships these beside the binary; electron-builder moves or drops them.
  await writeFile(join(dir, 'LICENSE'), 'Stand-in for the Electron LICENSE file (packaging check only).\n');
  await writeFile(join(dir, 'version'), 'stand-in\n');
  return dir;
}
