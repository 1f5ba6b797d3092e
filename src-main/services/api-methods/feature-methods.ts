import type { StudioMethod } from '../../../src-shared/studio-api';
import type { StudioHandlers } from '../dispatch/studio-dispatcher';

/**
 * One feature's part of the handler table: every method of the contract under its prefixes, typed
 * against the contract, so a method added to the contract fails to compile until its feature serves it.
 */
export type FeatureHandlers<Prefix extends string> = Pick<
  StudioHandlers,
  Extract<StudioMethod, `${Prefix}.${string}`>
>;
