import type { KbPushes } from '../kb/kb-pushes';
import type { KbSearches } from '../kb/kb-searches';
import { KB_CSV_TEMPLATE, checkRows, readKbCsv } from '../kb/kb-rows';
import { LIBRARY_CHUNK_SIZE, kbRowOfImage } from '../kb/kb-from-library';
import { appIdFor, kbIdFor } from '../kb/kb-targets';
import type { LibraryCatalog } from '../library/catalog/library-catalog';
import type { ProfileService } from '../profiles/profile-service';
import type { FeatureHandlers } from './feature-methods';

export interface KbHandlerDeps {
  profiles: ProfileService;
  pushes: KbPushes;
  searches: KbSearches;
  library: LibraryCatalog;
}

/** Knowledge base: rows checked before upload, uploads and searches with the active profile's key. */
export function kbHandlers({ profiles, pushes, searches, library }: KbHandlerDeps): FeatureHandlers<'kb'> {
  return {
    'kb.readCsv': ({ name, dataBase64 }) => readKbCsv(name, Buffer.from(dataBase64, 'base64')),
    'kb.template': () => KB_CSV_TEMPLATE,
    'kb.check': ({ rows, mode }) => checkRows(rows, mode),
    'kb.push': ({ rows, mode, prompt, kbId, chunkSize }) => {
      const profile = profiles.active();
      return pushes.start({
        profileId: profile.id,
        kbId: kbIdFor(profile, kbId),
        mode,
        prompt,
        rows,
        chunkSize,
      });
    },
    'kb.pushes': () => pushes.list(profiles.active().id),
    'kb.resume': ({ id }) => pushes.resume(id, profiles.active().id),
    'kb.pushFromLibrary': async ({ ids, kbId }) => {
      const rows = (await Promise.all(ids.map((id) => library.detail(id)))).map(kbRowOfImage);
      const profile = profiles.active();
      return pushes.start({
        profileId: profile.id,
        kbId: kbIdFor(profile, kbId),
        mode: 'index',
        rows,
        chunkSize: LIBRARY_CHUNK_SIZE,
      });
    },
    'kb.search': ({ prompts, similarity, limit, appId }) => {
      const profile = profiles.active();
      return searches.search({
        profileId: profile.id,
        appId: appIdFor(profile, appId),
        similarity,
        limit,
        prompts,
      });
    },
    'kb.history': () => searches.list(profiles.active().id),
  };
}
