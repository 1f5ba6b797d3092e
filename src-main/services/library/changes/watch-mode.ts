import { statfsSync } from 'node:fs';
import { logCaughtUnlessMissing } from '../../log/studio-log';

/**
 * File systems on which a file watch sees only this machine's own writes (Linux `statfs` types):
 * NFS, SMB (old smbfs), CIFS and SMB2/3. Another studio's writes on such a share are seen by
 * looking (polling) only.
 */
const NETWORK_TYPES = new Map<number, string>([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xff534d42, 'CIFS'],
  [0xfe534d42, 'SMB2'],
]);

export type WatchMode = { watch: boolean; why: string };

/**
 * Whether to watch the library folder with the system's file watches, or only look at it from
 * time to time: `STUDIO_LIBRARY_WATCH=poll` turns watches off (tests, and anyone whose share
 * is not detected), and a library on a network file system is polled without being asked.
 * Polling goes on in both modes; watching only makes a local change show sooner.
 */
export function watchModeOf(root: string, env: NodeJS.ProcessEnv = process.env): WatchMode {
  if (env.STUDIO_LIBRARY_WATCH === 'poll') return { watch: false, why: 'STUDIO_LIBRARY_WATCH=poll' };
  if (process.platform !== 'linux') return { watch: true, why: 'local' };
  try {
    // The type is the kernel's magic number; Node reports it as a signed or unsigned integer.
    const type = statfsSync(root).type >>> 0;
    const network = NETWORK_TYPES.get(type);
    return network ? { watch: false, why: `${network} share` } : { watch: true, why: 'local' };
  } catch (err) {
    // No library folder yet: watched as a local one, and asked again when the watch starts anew.
    logCaughtUnlessMissing('library folder file system type', err);
    return { watch: true, why: 'unknown' };
  }
}
