import { z } from 'zod';
import { budgetQuestionSchema, earlierSendSchema } from './send-refusal';

/**
 * An error as people see it, and as it crosses from main to renderer: the gateway's code and
 * request id where there is one, so a message can be explained in the user's language and reported.
 */
export const studioErrorSchema = z.object({
  /** A gateway code (BATCH_IMAGE_...), a native status (INVALID_ARGUMENT), or a studio code (STUDIO_...). */
  code: z.string(),
  message: z.string(),
  httpStatus: z.number().int().optional(),
  requestId: z.string().optional(),
  /** Whether sending the same request again is safe and may succeed. */
  retryable: z.boolean(),
  source: z.enum(['gateway', 'network', 'studio']),
  /** A refused paid send: the earlier submissions of the same content, for the "send again?" question. */
  earlier: z.array(earlierSendSchema).optional(),
  /** A refused paid send: the budget it would cross, for the "go past the budget?" question. */
  budget: budgetQuestionSchema.optional(),
});
