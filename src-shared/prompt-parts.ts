import { z } from 'zod';

/**
 * What a prompt was made of: the template and each variable's value, so that the library can
 * tell later which value got picked (issue 38). `source`: made by a template, proposed by the
 * studio from rows typed by hand (suggestParts) and accepted as is, or changed by the person.
 */
export const promptPartsSchema = z.object({
  template: z.string().max(100_000).optional(),
  values: z.record(z.string().max(100), z.string().max(10_000)),
  source: z.enum(['template', 'suggested', 'edited']),
});
export type PromptParts = z.infer<typeof promptPartsSchema>;
