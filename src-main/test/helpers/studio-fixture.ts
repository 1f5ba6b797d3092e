import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { StudioServices, StudioServicesOptions } from '../../services/studio-services';
import { servicesOnDisk } from './services-on-disk';

export type TestServices = StudioServices & { dataDir: string };

/**
 * Real services on a temporary data folder, with their own in-process sandbox, where items fail
 * only when a prompt says `[fail]`.
 */
export async function startServices(
  options: Partial<StudioServicesOptions> & { dataDir?: string; keepOpen?: boolean } = {},
): Promise<TestServices> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'studio-test-'));
  const services = await servicesOnDisk(dataDir, 'studio-test', {
    ...options,
    sandbox: { ...options.sandbox, config: { itemFailureRate: 0, ...options.sandbox?.config } },
  });
  if (!options.keepOpen) afterAll(() => services.close());
  return Object.assign(services, { dataDir });
}

/** Calls through the dispatcher, as both hosts do, and fails loudly on an error answer. */
export async function call(services: StudioServices, method: string, input: unknown = {}): Promise<any> {
  const result = await services.dispatch(method, input);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.code} ${result.error.message}`);
  return result.value;
}

/** Submits a draft and waits until its batch is in the library; answers the batch as it then is. */
export async function submitAndDownload(services: StudioServices, draft: unknown): Promise<any> {
  const { batch } = await call(services, 'batches.submit', { draft });
  return waitUntil(
    () => call(services, 'batches.get', { id: batch.id }),
    (b: any) => b.download.state === 'done',
  );
}

/** Waits until a condition on the studio's state holds, as a person watching the screen would. */
export async function waitUntil<T>(
  probe: () => T | Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value).slice(0, 600)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
