import type { AppInfo, ContextMenuRequest } from '../../../src-shared/studio-api';
import { StudioError } from '../../../src-shared/studio-error';
import type { Batches } from '../batches/batches';
import { checkProfile, type ConnectionMonitor } from '../connection/connection-monitor';
import { isAllowedExternalUrl } from '../external-links';
import { logRendererError } from '../log/studio-log';
import type { ProfileService } from '../profiles/profile-service';
import type { SettingsService } from '../settings/settings-service';
import type { FeatureHandlers } from './feature-methods';

export interface SettingsHandlerDeps {
  info: () => AppInfo;
  settings: SettingsService;
  profiles: ProfileService;
  connection: ConnectionMonitor;
  /** A profile made active brings in its server's batches at once. */
  batches: Pick<Batches, 'sync'>;
  /** Desktop hosts bring native dialogs and the system browser; browser mode has neither. */
  pickFolder?: (title?: string) => Promise<string | null>;
  openExternal?: (url: string) => Promise<void>;
  showContextMenu?: (menu: ContextMenuRequest) => Promise<string | null>;
}

/** The app itself: its settings, the gateway profiles and their connection, and the host's dialogs and links. */
export function settingsHandlers(
  deps: SettingsHandlerDeps,
): FeatureHandlers<'app' | 'settings' | 'people' | 'profiles' | 'connection' | 'dialog' | 'shell'> {
  const { settings, profiles, connection, batches } = deps;
  const isActive = (id: string) => settings.get().activeProfileId === id;
  return {
    'app.info': () => deps.info(),
    'app.logRendererError': ({ where, message }) => logRendererError(where, message),
    'settings.get': () => settings.get(),
    'settings.update': (patch) => settings.update(patch),
    'people.me': () => {
      const { personId, personName } = settings.get();
      return { id: personId, name: personName, notice: settings.personNotice() };
    },
    'profiles.list': () => profiles.list(),
    // The top bar shows the active profile's connection: a change to that profile checks it again.
    'profiles.save': (input) => {
      const saved = profiles.save(input);
      if (isActive(saved.id)) void connection.check();
      return saved;
    },
    'profiles.delete': ({ id }) => {
      const wasActive = isActive(id);
      const list = profiles.delete(id);
      if (wasActive) void connection.check();
      return list;
    },
    // Another profile is another account: its connection, and its batches, are fetched at once.
    'profiles.activate': ({ id }) => {
      const next = profiles.activate(id);
      void connection.check();
      batches.sync.syncQuietly();
      return next;
    },
    'profiles.test': ({ id }) => checkProfile(profiles.resolve(id)),
    'connection.status': () => connection.current(),
    'connection.check': () => connection.check(),
    'dialog.pickFolder': ({ title }) => (deps.pickFolder ? deps.pickFolder(title) : null),
    'dialog.contextMenu': async (menu) =>
      deps.showContextMenu
        ? { native: true, chosen: await deps.showContextMenu(menu) }
        : { native: false, chosen: null },
    'shell.openExternal': async ({ url }) => {
      // The profiles' own gateways are allowed too: their consoles and docs.
      const gateways = profiles.list().flatMap((p) => [p.baseUrl, p.kbBaseUrl]);
      if (!isAllowedExternalUrl(url, gateways)) {
        throw new StudioError({
          code: 'STUDIO_LINK_BLOCKED',
          message: 'This link is not on the list of sites the studio opens.',
        });
      }
      if (!deps.openExternal) return false;
      await deps.openExternal(url);
      return true;
    },
  };
}
