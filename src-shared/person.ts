import { z } from 'zod';
import { reviewMarkSchema } from './review-mark';

/**
 * A person of a team sharing one library: a display name (a label, not a login: the shared
 * folder's own permissions decide who may write) and an id made once per install. Each person's
 * marks and board changes are files of their own in the library, written only by their studio.
 */
export const PERSON_NAME_MAX = 60;
export const personNameSchema = z
  .string()
  .transform((name) => name.replace(/\s+/g, ' ').trim())
  .pipe(z.string().min(1, 'A name cannot be empty.').max(PERSON_NAME_MAX));

/** One person's mark on an image, as the grid shows the team's marks. */
export const personMarkSchema = z.object({
  name: z.string(),
  /** This studio's own person. */
  me: z.boolean(),
  mark: reviewMarkSchema,
  stars: z.number().int().min(0).max(5),
});
export type PersonMark = z.infer<typeof personMarkSchema>;

/**
 * The team's marks on one image: how many people picked and rejected it, and who. Marks made
 * before people had names (a library's `review.json`) count as one person, "earlier", for an image
 * nobody has marked since.
 */
export const teamMarksSchema = z.object({
  picks: z.number().int().min(0),
  rejects: z.number().int().min(0),
  /** People with any mark (pick, reject or alternative). */
  marked: z.number().int().min(0),
  by: z.array(personMarkSchema),
});
export type TeamMarks = z.infer<typeof teamMarksSchema>;

/** This studio's person, and why its id changed if it did (a copied data folder, told apart). */
export const personStatusSchema = z.object({
  id: z.string(),
  name: z.string(),
  /**
   * Set once this studio found another studio, still in use on `host`, with the same person id (its
   * data folder was copied from there): it took a new id, so the two are told apart from now on.
   */
  notice: z
    .object({ code: z.literal('PERSON_ID_COPIED'), host: z.string(), previousId: z.string(), at: z.number() })
    .nullable(),
});
export type PersonStatus = z.infer<typeof personStatusSchema>;
