import Conf from 'conf';
import { FileSecretStore } from '../../services/secrets/secret-store';
import {
  createStudioServices,
  type StudioServices,
  type StudioServicesOptions,
} from '../../services/studio-services';

/**
 * The studio's real services on a data folder, as the tests start them: browser host, settings in
 * `<dataDir>/settings.json` under `projectName`, secrets in files, the sandbox at 1000×. Without
 * vitest, so the runner processes the kill tests start use it too.
 */
export function servicesOnDisk(
  dataDir: string,
  projectName: string,
  options: Partial<StudioServicesOptions> = {},
): Promise<StudioServices> {
  return createStudioServices({
    host: 'browser',
    version: '0.0.0-test',
    dataDir,
    store: new Conf<Record<string, unknown>>({ cwd: dataDir, configName: 'settings', projectName }),
    secrets: new FileSecretStore(dataDir),
    sandboxTimeScale: 1000,
    ...options,
  });
}

/** Makes (once) and activates the profile of the gateway a runner is tested against, as Alice. */
export function useGatewayUnderTest(services: StudioServices, baseUrl: string): { id: string } {
  let profile = services.profiles.list().find((p) => p.name === 'Gateway under test');
  if (!profile)
    profile = services.profiles.save({ name: 'Gateway under test', baseUrl, gatewayKey: 'sk-sandbox-alice' });
  services.profiles.activate(profile.id);
  return profile;
}
