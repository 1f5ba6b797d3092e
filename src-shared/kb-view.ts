import { z } from 'zod';
import { studioErrorSchema } from './studio-error-schema';

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
  /** Why a row cannot go as it is: no question, or which part makes it too long. */
  problem: z.enum(['empty', 'question', 'answer', 'both']).optional(),
  /** For a row over the limit: rows that fit, made by cutting the long part. */
  split: z.array(kbRowSchema).optional(),
});
export type KbCheckedRow = z.infer<typeof kbCheckedRowSchema>;

export const kbPushSchema = z.object({
  id: z.string(),
  /** The profile whose knowledge-base key sends it: each profile lists, and hears of, its own. */
  profileId: z.string(),
  kbId: z.string(),
  mode: kbModeSchema,
  /** `refused`: the knowledge base turned the upload down outright (a bad key, no permission). */
  state: z.enum(['running', 'done', 'failed', 'paused', 'refused']),
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
  /** The profile whose key searched: the history is kept per profile, as the searches are its. */
  profileId: z.string(),
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
