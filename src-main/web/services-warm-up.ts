import type { ArmableGate } from './services-start';

/**
 * The packages the services import when they load (conf alone about 150 ms, ajv and all), one by
 * one. Loading the services takes the thread for a second, and the page's files wait for nothing:
 * so, from the moment the address is printed, these load a step at a time, each at a moment no
 * page file is being sent, and the services' own start (services-start.ts) finds them loaded. A
 * package missing from the list is only loaded with the services, as before.
 */
const PACKAGES: (() => Promise<unknown>)[] = [
  () => import('conf'),
  () => import('libsql'),
  () => import('electron-log/node'),
  () => import('fflate'),
  () => import('papaparse'),
  () => import('p-queue'),
  () => import('p-retry'),
];

/** Loads the packages, then `last` (the services' own code), each step when the page's files allow. */
export async function warmUp(gate: Pick<ArmableGate, 'idle'>, last: () => Promise<unknown>): Promise<void> {
  for (const load of [...PACKAGES, last]) {
    await gate.idle();
    // One that fails is loaded, and reported, with the services.
    await load().catch(() => undefined);
  }
}
