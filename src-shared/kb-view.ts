import { z } from 'zod';
import { studioErrorSchema } from './studio-error';

export const kbModeSchema = z.enum(['index', 'qa']);
export type KbMode = z.infer<typeof kbModeSchema>;

export const kbRowSchema = z.object({ q: z.string().max(200_000), a: z.string().max(200_000).default('') });
export type KbRow = z.infer<typeof kbRowSchema>;

/** A row checked before upload: its tokens against the mode's limit, and whether it repeats another. */
export const kbCheckedRowSchema = kbRowSchema.extend({
  tokens: z.number().int(),
  limit: z.number().int(),
  over: z.boolean(),
  duplicate: z.boolean(),
  /** For a row over the limit: the question cut into parts that fit. */
  split: z.array(z.string()).optional(),
});
export type KbCheckedRow = z.infer<typeof kbCheckedRowSchema>;

export const kbPushSchema = z.object({
  id: z.string(),
  kbId: z.string(),
  mode: kbModeSchema,
  state: z.enum(['running', 'done', 'failed', 'paused']),
  rows: z.number().int(),
  chunks: z.number().int(),
  chunksSent: z.number().int(),
  inserted: z.number().int(),
  failedChunks: z.number().int(),
  error: studioErrorSchema.optional(),
  createdAt: z.number().int(),
});
export type KbPush = z.infer<typeof kbPushSchema>;

export const kbSearchResultSchema = z.object({
  id: z.string(),
  at: z.number().int(),
  appId: z.string(),
  similarity: z.number(),
  limit: z.number().int(),
  prompts: z.array(z.string()),
  rawSearch: z.array(z.object({ id: z.string(), q: z.string(), a: z.string() })),
  userSystemPrompt: z.string(),
  quotePrompt: z.string(),
});
export type KbSearchResult = z.infer<typeof kbSearchResultSchema>;
