import { startFirstServices, type FirstServices } from './first-services';
import type { StudioServices, StudioServicesOptions } from './studio-services';

export interface StartingStudio {
  /** Running: answers the first screen's calls (first-services.ts) and carries the events. */
  first: FirstServices;
  /** Every service, built on the first ones. */
  all: Promise<StudioServices>;
}

/**
 * The order both hosts start the studio in: the services the first screen calls, at once; then,
 * when `before` lets them (browser mode: a moment no page file and no first call is being
 * answered), the rest (the sandbox, the catalog, the poller, the tokenizer…), whose code loads only
 * then: loading it takes the thread for a good part of a second.
 */
export function startStudio(
  options: StudioServicesOptions,
  before: () => Promise<unknown> = () => Promise.resolve(),
): StartingStudio {
  const first = startFirstServices(options);
  const all = before()
    .then(() =>
      import('./studio-services').catch((err: unknown) => {
        first.unlock();
        throw err;
      }),
    )
    .then((m) => m.createStudioServices(options, first));
  return { first, all };
}
