import { z } from 'zod';
import { draftSchema } from './draft';
import { GATEWAY_LIMITS } from './draft-rules';
import { libraryFilterSchema } from './library-view';

/**
 * The name `by` takes for the model an image was made on, beside the template's variable names. A
 * variable's name is letters, digits, `_` and `-` only (prompt-template.ts), so it can never be
 * this: a template with a variable called `model` is grouped by that variable or by the model, as asked.
 */
export const WHAT_WORKED_MODEL = '@model';

/**
 * The rows the view is sent at first: a value typed per image (a take, a seed) can make a row per
 * image, and a hundred thousand rows help nobody choose; the rest are a click away.
 */
export const WHAT_WORKED_ROWS = 200;
/** Every row, for an export. */
export const WHAT_WORKED_ALL = 1_000_000;

/**
 * "What worked": the images under a Library filter, grouped by the values of one to three
 * variables (or the model). `marksBy` says whose marks count: this person's, everyone's (an image
 * anyone picked counts as picked), or agreement only (at least two people marked it, all alike:
 * the Library's "agree" filter). It is not called `whose` because the Library filter already has
 * a `whose` (for its review filter).
 */
export const whatWorkedQuerySchema = libraryFilterSchema
  .extend({
    by: z.array(z.string().min(1).max(100)).min(1).max(3),
    marksBy: z.enum(['mine', 'everyone', 'agreement']).default('everyone'),
    /** The best rows sent; the rest are counted in `more` (an export asks for all of them). */
    limit: z.number().int().min(1).max(WHAT_WORKED_ALL).default(WHAT_WORKED_ROWS),
  })
  .strict();
export type WhatWorkedQuery = z.input<typeof whatWorkedQuerySchema>;

/** A 95 % interval of a share, both ends in 0..1. */
export const shareIntervalSchema = z.object({ low: z.number(), high: z.number() });
export type ShareInterval = z.infer<typeof shareIntervalSchema>;

/** One value (or combination of values) and what became of its images. */
export const whatWorkedRowSchema = z.object({
  /** Each `by` name's value; '' where an image has no value for it. */
  values: z.record(z.string(), z.string()),
  images: z.number().int(),
  picked: z.number().int(),
  rejected: z.number().int(),
  unrated: z.number().int(),
  /** Images with stars. */
  starred: z.number().int(),
  /** Mean stars of the starred images; null when none has stars. */
  meanStars: z.number().nullable(),
  /** 95 % Wilson score interval of picked / images. */
  pickInterval: shareIntervalSchema,
  /** The rank key (the interval's low end): rows come best first. */
  score: z.number(),
});
export type WhatWorkedRow = z.infer<typeof whatWorkedRowSchema>;

export const whatWorkedResultSchema = z.object({
  /** Every variable present under the filter, and WHAT_WORKED_MODEL. */
  variables: z.array(z.string()),
  /** The best rows, at most the query's `limit`. */
  rows: z.array(whatWorkedRowSchema),
  /** Rows ranked below those, not sent. */
  more: z.number().int(),
  /** Images under the filter. */
  images: z.number().int(),
  /** Of them, images without parts (typed by hand and never split). */
  unparted: z.number().int(),
});
export type WhatWorkedResult = z.infer<typeof whatWorkedResultSchema>;

/** "New draft from what worked": the winning rows crossed again, or their picked prompts kept. */
export const fromWhatWorkedSchema = z
  .object({
    query: whatWorkedQuerySchema,
    /** The rows chosen as winners, by their `values`. */
    chosen: z.array(z.record(z.string(), z.string())).min(1).max(1000),
    mode: z.enum(['cross', 'keep']),
    /** Images a row, up to what the gateway takes for one row. */
    outputCount: z.number().int().min(1).max(GATEWAY_LIMITS.maxOutputCount),
    /** The picked images as each row's references. */
    withReferences: z.boolean().default(false),
  })
  .strict();
export const fromWhatWorkedResultSchema = draftSchema;

/** z for a 95 % interval. */
const Z = 1.959963984540054;

/**
 * The Wilson score interval of `picked` out of `n` (95 %): unlike picked / n ± error it stays in
 * 0..1 and stays wide for a few images, so 2 of 3 reads as "somewhere from 21 % to 94 %".
 */
export function pickInterval(picked: number, n: number): ShareInterval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = picked / n;
  const z2 = Z * Z;
  const centre = p + z2 / (2 * n);
  const spread = Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const denominator = 1 + z2 / n;
  return {
    low: Math.max(0, (centre - spread) / denominator),
    high: Math.min(1, (centre + spread) / denominator),
  };
}

/**
 * Best first: by the interval's low end (the pick rate we can be sure of), so a small sample must
 * earn its place (1 of 1 has a low end of 21 %; 40 of 50 of 67 %); ties by more images, then by
 * the values, so the order never depends on the order rows came in.
 */
export function rankWhatWorked<R extends Pick<WhatWorkedRow, 'score' | 'images' | 'values'>>(rows: R[]): R[] {
  const key = (r: R) => JSON.stringify(Object.entries(r.values));
  return [...rows].sort((a, b) => b.score - a.score || b.images - a.images || key(a).localeCompare(key(b)));
}
