import Conf from 'conf';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { FileSecretStore } from '../services/secrets/secret-store';
import { createStudioServices, type StudioServices } from '../services/studio-services';

/** Real services on a temporary data folder, with their own in-process sandbox. */
export async function startServices(): Promise<StudioServices & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-test-'));
  const services = await createStudioServices({
    host: 'browser',
    version: '0.0.0-test',
    dataDir,
    store: new Conf<Record<string, unknown>>({
      cwd: dataDir,
      configName: 'settings',
      projectName: 'studio-test',
    }),
    secrets: new FileSecretStore(dataDir),
    sandboxTimeScale: 1000,
  });
  afterAll(() => services.close());
  return Object.assign(services, { dataDir });
}

/** Calls through the dispatcher, as both hosts do, and fails loudly on an error answer. */
export async function call(services: StudioServices, method: string, input: unknown = {}): Promise<any> {
  const result = await services.dispatch(method, input);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.code} ${result.error.message}`);
  return result.value;
}
