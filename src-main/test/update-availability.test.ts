import { describe, expect, it } from 'vitest';
import {
  PACKAGE_MANAGER_COMMANDS,
  updateAvailability,
  type InstallFacts,
} from '../services/updates/update-availability';

const installed: InstallFacts = {
  packaged: true,
  hasUpdateConfig: true,
  platform: 'linux',
  appImage: '/home/ada/Applications/batch-image-studio-x86_64.AppImage',
  writable: () => true,
};

describe('whether an installed copy can update itself', () => {
  it('checks nothing in a build without a feed, or run from sources', () => {
    expect(updateAvailability({ ...installed, hasUpdateConfig: false })).toEqual({ kind: 'no-feed' });
    expect(updateAvailability({ ...installed, packaged: false })).toEqual({ kind: 'no-feed' });
  });

  it('updates an AppImage in a folder its user can write to, and Windows and macOS copies', () => {
    expect(updateAvailability(installed)).toEqual({ kind: 'ready' });
    expect(updateAvailability({ ...installed, platform: 'win32', appImage: undefined })).toEqual({
      kind: 'ready',
    });
    expect(updateAvailability({ ...installed, platform: 'darwin', appImage: undefined })).toEqual({
      kind: 'ready',
    });
  });

  it('says where an AppImage is that cannot be replaced', () => {
    const inOpt = { ...installed, appImage: '/opt/batch-image-studio.AppImage' };
    expect(updateAvailability({ ...inOpt, writable: (path) => path !== '/opt' })).toEqual({
      kind: 'unwritable',
      detail: '/opt/batch-image-studio.AppImage',
    });
  });

  it('leaves a deb to apt, with the command', () => {
    expect(updateAvailability({ ...installed, appImage: undefined, linuxPackageType: 'deb' })).toEqual({
      kind: 'package-manager',
      detail: 'sudo apt update && sudo apt install --only-upgrade batch-image-studio',
    });
    expect(PACKAGE_MANAGER_COMMANDS.rpm).toContain('dnf');
  });
});
