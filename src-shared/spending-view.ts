import { z } from 'zod';

/** The longest range the spending chart asks for: a year, with a leap day. */
export const SPENDING_MAX_DAYS = 366;

/** A calendar day in the user's time zone, `YYYY-MM-DD`. */
export const isoDaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The user's IANA time zone, sent by the window: days and months are the user's, not the main
 * process's (browser mode may serve a window in another zone).
 */
export const timeZoneSchema = z.string().min(1).max(100).refine(isTimeZone, 'unknown time zone');

/**
 * One day's figures, from the batches created that day. `spent` counts each batch once: its actual
 * (settled) cost where known, else its outstanding hold, else its estimate; a failed or cancelled
 * batch that never settled counts nothing (its hold went back).
 */
export const spendingDaySchema = z.object({
  day: isoDaySchema,
  batches: z.number().int(),
  estimated: z.number(),
  held: z.number(),
  actual: z.number(),
  spent: z.number(),
});
export type SpendingDay = z.infer<typeof spendingDaySchema>;

export const spendingQuerySchema = z
  .object({ timeZone: timeZoneSchema, from: isoDaySchema.optional(), to: isoDaySchema.optional() })
  .strict();

/** The active profile's spending per day, every day of the range present (zeros too). */
export const spendingSchema = z.object({
  profileId: z.string(),
  timeZone: z.string(),
  from: isoDaySchema,
  to: isoDaySchema,
  days: z.array(spendingDaySchema),
  totals: spendingDaySchema.omit({ day: true }),
});
export type Spending = z.infer<typeof spendingSchema>;

/** The calendar month so far against the profile's monthly budget (null: none set). */
export const budgetStatusSchema = z.object({
  profileId: z.string(),
  /** `YYYY-MM` in the user's time zone. */
  month: z.string(),
  budget: z.number().nullable(),
  batches: z.number().int(),
  spent: z.number(),
  remaining: z.number().nullable(),
});
export type BudgetStatus = z.infer<typeof budgetStatusSchema>;

export const budgetCheckInputSchema = z
  .object({
    timeZone: timeZoneSchema,
    /** What is about to be sent: one part per batch model, with its expanded image count. */
    parts: z
      .array(z.object({ model: z.string().min(1).max(200), images: z.number().int().min(0) }).strict())
      .min(1)
      .max(20),
  })
  .strict();

/**
 * Whether a submit would cross the budget. The estimate is the per-image estimate of the profile's
 * latest batch of the same model (its own `estimated_cost / item_count`); a model never sent from
 * this profile has none, and the verdict is then `unknown`.
 */
export const budgetCheckSchema = z.object({
  status: budgetStatusSchema,
  verdict: z.enum(['no-budget', 'within', 'crosses', 'unknown']),
  estimate: z.number().nullable(),
  /** Models with no earlier batch on this profile to estimate from. */
  unknownModels: z.array(z.string()),
});
export type BudgetCheck = z.infer<typeof budgetCheckSchema>;
