import { z } from 'zod';
import { studioErrorSchema } from './studio-error';

export const connectionStatusSchema = z.object({
  profileId: z.string(),
  state: z.enum(['checking', 'ok', 'error']),
  /** Batch models the key may use, when the check succeeded. */
  models: z.array(z.string()),
  checkedAt: z.number().int(),
  error: studioErrorSchema.optional(),
});
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;
