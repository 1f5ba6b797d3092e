import { dirname } from 'node:path';
import type { UpdateAvailability } from '../../../src-shared/updates';

/** What a deb user runs; the studio never asks for a password to update itself. */
export const PACKAGE_MANAGER_COMMANDS: Record<string, string> = {
  deb: 'sudo apt update && sudo apt install --only-upgrade batch-image-studio',
  rpm: 'sudo dnf upgrade batch-image-studio',
  pacman: 'sudo pacman -Syu batch-image-studio',
};

/** What the desktop host knows of how this copy was installed. */
export interface InstallFacts {
  packaged: boolean;
  /** resources/app-update.yml exists: the build was made with STUDIO_UPDATE_URL. */
  hasUpdateConfig: boolean;
  platform: NodeJS.Platform;
  /** resources/package-type, which electron-builder writes into a deb, rpm or pacman package. */
  linuxPackageType?: string;
  /** $APPIMAGE: the AppImage file the studio runs from, which an update replaces. */
  appImage?: string;
  writable: (path: string) => boolean;
}

/**
 * Whether this copy can update itself, and if not why, in the terms Settings words it: a build
 * without a feed checks nothing; a Linux package is its package manager's to update (the command is
 * shown); an AppImage in a folder the user cannot write to cannot be replaced (the path is shown).
 */
export function updateAvailability(facts: InstallFacts): UpdateAvailability {
  if (!facts.packaged || !facts.hasUpdateConfig) return { kind: 'no-feed' };
  if (facts.platform !== 'linux') return { kind: 'ready' };
  const command = facts.linuxPackageType ? PACKAGE_MANAGER_COMMANDS[facts.linuxPackageType] : undefined;
  if (command) return { kind: 'package-manager', detail: command };
  // Neither a package nor an AppImage (an unpacked folder): nothing to replace it with.
  if (!facts.appImage) return { kind: 'no-feed' };
  if (!facts.writable(dirname(facts.appImage)) || !facts.writable(facts.appImage)) {
    return { kind: 'unwritable', detail: facts.appImage };
  }
  return { kind: 'ready' };
}
