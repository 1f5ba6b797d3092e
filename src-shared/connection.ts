import { z } from 'zod';
import { studioErrorSchema } from './studio-error-schema';

export const connectionStatusSchema = z.object({
  profileId: z.string(),
  state: z.enum(['checking', 'ok', 'error']),
  /** Batch models the key may use, when the check succeeded. */
  models: z.array(z.string()),
  checkedAt: z.number().int(),
  error: studioErrorSchema.optional(),
  /**
   * The knowledge-base key, which is separate and has no cheap check: its standing as learnt from
   * the last upload or search. Absent until the knowledge base has been used with this key.
   */
  kb: z.object({ state: z.enum(['ok', 'error']), error: studioErrorSchema.optional() }).optional(),
});
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;
