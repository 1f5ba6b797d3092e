import type { UpdateService } from '../updates/update-service';
import type { FeatureHandlers } from './feature-methods';

/** Updates of the installed studio: the banner's and Settings' calls. */
export function updateHandlers(updates: UpdateService): FeatureHandlers<'updates'> {
  return {
    'updates.status': () => updates.status(),
    'updates.check': () => updates.check(),
    'updates.setPreferences': (patch) => updates.setPreferences(patch),
    'updates.restart': () => updates.restart(),
    'updates.later': () => updates.later(),
    'updates.skip': () => updates.skip(),
  };
}
