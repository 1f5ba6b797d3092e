import { z } from 'zod';

const httpUrl = z
  .string()
  .trim()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://');

/** What the renderer may know of a key: whether one is set, and its last four characters. */
export const keyStatusSchema = z.object({ set: z.boolean(), last4: z.string().max(4).optional() });
export type KeyStatus = z.infer<typeof keyStatusSchema>;

/** A connection profile as the renderer sees it. Keys never appear here. */
export const profileSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The built-in sandbox profile points at the in-process sandbox, whose port changes per run. */
  kind: z.enum(['sandbox', 'gateway']),
  baseUrl: z.string(),
  kbBaseUrl: z.string(),
  defaultAppId: z.string(),
  defaultKbId: z.string(),
  gatewayKey: keyStatusSchema,
  kbKey: keyStatusSchema,
  /** An optional monthly spending budget, in the gateway's currency; null: none. */
  monthlyBudget: z.number().nullable().default(null),
});
export type Profile = z.infer<typeof profileSchema>;

/**
 * Saving a profile. Keys are write-only: absent leaves the stored key alone, an empty string
 * removes it.
 */
export const profileInputSchema = z
  .object({
    id: z.string().optional(),
    name: z.string().trim().min(1).max(80),
    baseUrl: httpUrl,
    kbBaseUrl: z.union([httpUrl, z.literal('')]).default(''),
    defaultAppId: z.string().trim().max(200).default(''),
    defaultKbId: z.string().trim().max(200).default(''),
    gatewayKey: z.string().trim().max(1000).optional(),
    kbKey: z.string().trim().max(1000).optional(),
    /** Absent leaves the budget alone; null removes it. */
    monthlyBudget: z.number().min(0).max(1e12).nullable().optional(),
  })
  .strict();
export type ProfileInput = z.input<typeof profileInputSchema>;
