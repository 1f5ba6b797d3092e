import type { z } from 'zod';
import {
  isStudioMethod,
  studioMethods,
  type MethodOutput,
  type StudioMethod,
} from '../../../src-shared/studio-api';
import { StudioError, type StudioErrorView } from '../../../src-shared/studio-error';
import { describeIssues } from './input-issues';

export type StudioHandlers = {
  [M in StudioMethod]: (
    input: z.output<(typeof studioMethods)[M]['input']>,
  ) => Promise<MethodOutput<M>> | MethodOutput<M>;
};

export type CallResult = { ok: true; value: unknown } | { ok: false; error: StudioErrorView };

/**
 * The one entry point both hosts call. Validates the input against the method's schema, runs the
 * service, and validates the output too: object schemas drop unknown fields, so nothing a service
 * returns by mistake (a key, say) crosses to the renderer. Never throws.
 */
export function createDispatcher(handlers: StudioHandlers, scrub: (text: string) => string) {
  return async function dispatch(method: string, input: unknown): Promise<CallResult> {
    try {
      if (!isStudioMethod(method)) {
        throw new StudioError({
          code: 'STUDIO_UNKNOWN_METHOD',
          message: `No method "${String(method).slice(0, 100)}".`,
        });
      }
      const spec = studioMethods[method];
      // With the input in each issue, a missing field is told from a field of the wrong kind.
      const parsed = spec.input.safeParse(input ?? {}, { reportInput: true });
      if (!parsed.success) {
        throw new StudioError({
          code: 'STUDIO_INVALID_INPUT',
          message: `Invalid input for ${method}: ${describeIssues(parsed.error)}`,
        });
      }
      const handler = handlers[method] as (input: unknown) => unknown;
      const value = await handler(parsed.data);
      const checked = spec.output.safeParse(value);
      if (!checked.success) {
        throw new StudioError({
          code: 'STUDIO_INVALID_OUTPUT',
          message: `${method} produced an invalid answer: ${describeIssues(checked.error)}`,
        });
      }
      return { ok: true, value: checked.data };
    } catch (err) {
      const view = StudioError.from(err).toView();
      return { ok: false, error: { ...view, message: scrub(view.message) } };
    }
  };
}

export type Dispatch = ReturnType<typeof createDispatcher>;
