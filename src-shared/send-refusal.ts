import { z } from 'zod';

/**
 * What main says when it will not send a paid batch as asked: the earlier submission of the same
 * content (per profile and model), or the budget the send would cross. The window turns a refusal
 * into the question it carries, and calls again naming what the user confirmed.
 */
export const earlierSendSchema = z.object({
  submissionId: z.string(),
  /** `sending` or `unknown`: never sent a second time; `created`: sent again only when confirmed. */
  state: z.enum(['sending', 'unknown', 'created']),
  batchId: z.string().optional(),
  taskName: z.string(),
  model: z.string(),
  /** Unix milliseconds. */
  sentAt: z.number().int(),
});
export type EarlierSend = z.infer<typeof earlierSendSchema>;

export const budgetQuestionSchema = z.object({
  /** `crosses`: the estimate takes the month past the budget; `unknown`: no estimate to tell. */
  verdict: z.enum(['crosses', 'unknown']),
  estimate: z.number().nullable(),
  spent: z.number(),
  budget: z.number(),
  unknownModels: z.array(z.string()),
});
export type BudgetQuestion = z.infer<typeof budgetQuestionSchema>;

/** What the user agreed to, sent with a paid call after the question a refusal carried. */
export const sendConfirmationSchema = z
  .object({
    /** The earlier submissions (ids from a STUDIO_SENT_BEFORE refusal) the user agreed to pay for again. */
    resendOf: z.array(z.string().min(1).max(100)).max(40).default([]),
    /** The user agreed to go past the monthly budget, or to send with no estimate to tell. */
    overBudget: z.boolean().default(false),
  })
  .strict();
export type SendConfirmation = z.input<typeof sendConfirmationSchema>;
