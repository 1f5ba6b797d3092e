import { z } from 'zod';

/**
 * A review mark. `alternative`: another model's take on a row whose pick was made in "Compare
 * across models": kept, not rejected, but not the one chosen.
 */
export const REVIEW_MARKS = ['picked', 'rejected', 'alternative'] as const;
export const reviewMarkSchema = z.enum(REVIEW_MARKS).nullable();
export type ReviewMark = z.infer<typeof reviewMarkSchema>;
