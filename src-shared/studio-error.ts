import type { z } from 'zod';
import type { BudgetQuestion, EarlierSend } from './send-refusal';
import type { studioErrorSchema } from './studio-error-schema';

// No zod at run time here: the window's first screen imports this file, and zod would be a sixth
// of its script (issue 36). The schema main validates with is studio-error-schema.ts; viewOf
// below checks the same shape by hand, and a test holds the two to the same answers.
export type StudioErrorView = z.infer<typeof studioErrorSchema>;

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const oneOf =
  <T extends string>(...values: T[]) =>
  (v: unknown): v is T =>
    values.includes(v as T);

function earlierOf(v: unknown): EarlierSend | undefined {
  if (!isObject(v) || !isString(v.submissionId) || !isString(v.taskName) || !isString(v.model)) return;
  if (!oneOf('sending', 'unknown', 'created')(v.state) || !isInt(v.sentAt)) return;
  if (v.batchId !== undefined && !isString(v.batchId)) return;
  const { submissionId, state, batchId, taskName, model, sentAt } = v;
  return { submissionId, state, ...(batchId !== undefined ? { batchId } : {}), taskName, model, sentAt };
}

function budgetOf(v: unknown): BudgetQuestion | undefined {
  if (!isObject(v) || !oneOf('crosses', 'unknown')(v.verdict)) return;
  if (!(v.estimate === null || isNumber(v.estimate)) || !isNumber(v.spent) || !isNumber(v.budget)) return;
  if (!Array.isArray(v.unknownModels) || !v.unknownModels.every(isString)) return;
  const { verdict, estimate, spent, budget, unknownModels } = v;
  return { verdict, estimate, spent, budget, unknownModels: [...unknownModels] };
}

/**
 * What studioErrorSchema.safeParse answers, by hand: the view when `error` has its shape (fields
 * it does not name left out), or undefined.
 */
function viewOf(error: unknown): StudioErrorView | undefined {
  if (!isObject(error) || !isString(error.code) || !isString(error.message)) return;
  if (typeof error.retryable !== 'boolean' || !oneOf('gateway', 'network', 'studio')(error.source)) return;
  const { httpStatus, requestId, earlier, budget } = error;
  if (httpStatus !== undefined && !isInt(httpStatus)) return;
  if (requestId !== undefined && !isString(requestId)) return;
  const earlierSends = Array.isArray(earlier) ? earlier.map(earlierOf) : undefined;
  if (earlier !== undefined && (!earlierSends || earlierSends.includes(undefined))) return;
  const budgetQuestion = budget === undefined ? undefined : budgetOf(budget);
  if (budget !== undefined && !budgetQuestion) return;
  return {
    code: error.code,
    message: error.message,
    ...(httpStatus !== undefined ? { httpStatus } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
    retryable: error.retryable,
    source: error.source,
    ...(earlierSends ? { earlier: earlierSends as EarlierSend[] } : {}),
    ...(budgetQuestion ? { budget: budgetQuestion } : {}),
  };
}

/** Thrown by services and hosts; serialised with `toView()` for the renderer. */
export class StudioError extends Error {
  readonly code: string;
  readonly httpStatus?: number;
  readonly requestId?: string;
  readonly retryable: boolean;
  readonly source: StudioErrorView['source'];
  readonly earlier?: StudioErrorView['earlier'];
  readonly budget?: StudioErrorView['budget'];

  constructor(
    view: Omit<StudioErrorView, 'retryable' | 'source'> &
      Partial<Pick<StudioErrorView, 'retryable' | 'source'>>,
  ) {
    super(view.message);
    this.name = 'StudioError';
    this.code = view.code;
    this.httpStatus = view.httpStatus;
    this.requestId = view.requestId;
    this.retryable = view.retryable ?? false;
    this.source = view.source ?? 'studio';
    this.earlier = view.earlier;
    this.budget = view.budget;
  }

  toView(): StudioErrorView {
    return {
      code: this.code,
      message: this.message,
      ...(this.httpStatus !== undefined ? { httpStatus: this.httpStatus } : {}),
      ...(this.requestId !== undefined ? { requestId: this.requestId } : {}),
      retryable: this.retryable,
      source: this.source,
      ...(this.earlier ? { earlier: this.earlier } : {}),
      ...(this.budget ? { budget: this.budget } : {}),
    };
  }

  static from(error: unknown): StudioError {
    if (error instanceof StudioError) return error;
    const view = viewOf(error);
    if (view) return new StudioError(view);
    return new StudioError({
      code: 'STUDIO_INTERNAL',
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * The translation key that explains an error: its own code's when there is one, otherwise a general
 * sentence naming who raised it. An error the studio raised itself is never put on the gateway.
 * Given a type guard for `known`, the key comes back typed, so `t()` can check it.
 */
export function explanationKey<K extends string>(
  error: Pick<StudioErrorView, 'code' | 'source' | 'httpStatus'>,
  known: (key: string) => key is K,
): K | 'errors.unknownStudio' | 'errors.unknownNetwork' | 'errors.unknown';
export function explanationKey(
  error: Pick<StudioErrorView, 'code' | 'source' | 'httpStatus'>,
  known: (key: string) => boolean,
): string;
export function explanationKey(
  error: Pick<StudioErrorView, 'code' | 'source' | 'httpStatus'>,
  known: (key: string) => boolean,
): string {
  // By code and status together first: 503 BATCH_IMAGE_NOT_READY (the runtime is not ready) is not
  // 409 BATCH_IMAGE_NOT_READY (the results are not ready), as gateway-notes.md warns.
  const withStatus = `errors.${error.code}_${error.httpStatus}`;
  if (error.httpStatus !== undefined && known(withStatus)) return withStatus;
  const own = `errors.${error.code}`;
  if (known(own)) return own;
  // An answer without the API's body (a proxy's HTML page): its status is all there is.
  const byStatus = `errors.HTTP_${error.httpStatus}`;
  if (error.httpStatus !== undefined && known(byStatus)) return byStatus;
  if (error.source === 'studio' || error.code.startsWith('STUDIO_')) return 'errors.unknownStudio';
  if (error.source === 'network') return 'errors.unknownNetwork';
  return 'errors.unknown';
}

/**
 * What the studio does next about an error, so every explanation can say it: `retries` (by itself,
 * later each time), `waits` (for the batch or a download slot, then goes on), or `nothing` (a
 * definite answer: only the user can change the outcome).
 */
export type NextStep = 'retries' | 'waits' | 'nothing';

const NEXT_BY_CODE: Record<string, NextStep> = {
  BATCH_IMAGE_NOT_READY_409: 'waits',
  BATCH_IMAGE_DOWNLOAD_LIMITED_429: 'waits',
  BATCH_IMAGE_ZIP_TOO_MANY_ITEMS_400: 'waits',
  // Downloads that failed on the gateway's side are tried again later, on their own.
  BATCH_IMAGE_DOWNLOAD_FAILED_500: 'retries',
  BATCH_IMAGE_RESULT_MISSING_500: 'retries',
  RATE_LIMITED_429: 'retries',
};

export function nextStep(
  error: Pick<StudioErrorView, 'code' | 'source' | 'httpStatus' | 'retryable'>,
): NextStep {
  const known = NEXT_BY_CODE[`${error.code}_${error.httpStatus}`];
  if (known) return known;
  if (error.source === 'network') return 'retries';
  // The batch API's own 5xx on a create is a definite refusal: nothing was made, nothing resent.
  if (error.code.startsWith('BATCH_IMAGE_')) return 'nothing';
  if (error.source === 'gateway' && (error.httpStatus === 429 || (error.httpStatus ?? 0) >= 500))
    return 'retries';
  return 'nothing';
}
