import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { logCaught, logCaughtUnlessMissing } from '../../log/studio-log';
import { makeDir } from '../../storage/atomic-file';
import { safeName } from '../../storage/file-names';
import { STUDIO_DIR } from './studio-staging';
import { createOwnerFile, heartbeat, otherOwnerLives, readOwner } from './studio-owner';

/** The holder touches its lease this often while it downloads. */
const LEASE_HEARTBEAT_MS = 10_000;
/** Three heartbeats missed: the holder on another machine is gone, and the lease may be taken over. */
const LEASE_STALE_MS = 4 * LEASE_HEARTBEAT_MS;

export function leaseFileOf(root: string, batchId: string): string {
  return join(root, STUDIO_DIR, 'leases', `${safeName(batchId, 80)}.json`);
}

export interface HeldLease {
  release(): Promise<void>;
}

/**
 * One download of a batch into a shared library at a time, across the team: the studio that makes
 * `.studio/leases/<batchId>.json` (an exclusive create) downloads it, touching the file while it
 * does; the others wait for its folder. A lease whose holder died (its process gone on this
 * machine, or three heartbeats missed on another) is taken over: moved aside under a name of its
 * own first, so of two studios taking it over at once only one does. A sync tool cannot make an
 * exclusive create exclusive across machines: publishing never replaces a folder that appeared
 * meanwhile (publishBatchFolder) is what keeps two downloads from harm there.
 *
 * Answers the lease, or `undefined` while another live studio holds it.
 */
export async function claimLease(
  root: string,
  batchId: string,
  studioId: string,
): Promise<HeldLease | undefined> {
  const file = leaseFileOf(root, batchId);
  await makeDir(join(root, STUDIO_DIR, 'leases'));
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createOwnerFile(file, studioId, { batchId })) {
      const stop = heartbeat(file, LEASE_HEARTBEAT_MS);
      return {
        // On this thread: a download's end is announced only once its lease is free, and a retry
        // set for a few milliseconds later finds the download over, not still running.
        release: () => {
          stop();
          try {
            // Only our own: a holder that lost it to a takeover (it looked dead) leaves the new one.
            if (readOwner(file)?.studioId === studioId) rmSync(file, { force: true });
          } catch (err) {
            logCaught('download lease release', err);
          }
          return Promise.resolve();
        },
      };
    }
    const owner = readOwner(file);
    // A lease being written this very moment reads as nothing yet: the next look tells.
    if (!owner && attempt === 0) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (owner && otherOwnerLives(owner, file, studioId, LEASE_STALE_MS)) return undefined;
    const aside = `${file}.stale-${randomBytes(4).toString('hex')}`;
    try {
      await rename(file, aside);
      await rm(aside, { force: true });
    } catch (err) {
      // Another studio took it over first; the next round sees its lease.
      logCaughtUnlessMissing('download lease takeover', err);
    }
  }
  return undefined;
}
