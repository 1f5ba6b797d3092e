import { z } from 'zod';
import { teamMarksSchema } from './person';

import { reviewMarkSchema } from './review-mark';

export { reviewMarkSchema, type ReviewMark } from './review-mark';

/** One image of the library, as the gallery lists it. */
export const libraryImageSchema = z.object({
  id: z.string(),
  batchId: z.string(),
  taskName: z.string(),
  model: z.string(),
  customId: z.string(),
  prompt: z.string(),
  createdAt: z.number().int(),
  mime: z.string(),
  bytes: z.number().int(),
  mark: reviewMarkSchema,
  stars: z.number().int().min(0).max(5),
  /**
   * Its near-duplicate stack (src-shared/image-stacks.ts), when it has one: the id of the stack's
   * first image, and how many images the stack holds. Absent for an image alone, or not hashed yet.
   * At the level the list asked for (`stackLevel`): near-identical unless it asked for similar.
   */
  stack: z
    .object({ leader: z.string(), size: z.number().int().min(2), level: z.enum(['near', 'similar']) })
    .optional(),
  /** The team's marks (src-shared/person.ts); absent where nobody else has marked it. */
  team: teamMarksSchema.optional(),
});
export type LibraryImage = z.infer<typeof libraryImageSchema>;

/** Which images, in which order: the same for a window of the gallery and for "all of them". */
export const libraryFilterSchema = z
  .object({
    search: z.string().max(500).optional(),
    batchId: z.string().optional(),
    /** Only the images of one collection (board). */
    collectionId: z.string().optional(),
    model: z.string().optional(),
    from: z.number().optional(),
    to: z.number().optional(),
    review: z.enum(['any', 'picked', 'rejected', 'alternative', 'unrated']).default('any'),
    /**
     * Whose marks `review` looks at: this person's own (the default), or anyone's ("picked" by
     * anyone, "unrated" by everyone).
     */
    whose: z.enum(['mine', 'anyone']).optional(),
    /** Images at least two people marked, all alike (`agree`), or marked differently (`disagree`). */
    agreement: z.enum(['agree', 'disagree']).optional(),
    /** Picked by at least this many people. */
    minPicks: z.number().int().min(1).max(1000).optional(),
    minStars: z.number().int().min(0).max(5).default(0),
    sort: z.enum(['newest', 'oldest', 'stars', 'prompt']).default('newest'),
    /** `one`: one image per stack (its first), as a culling pass wants. */
    stacks: z.enum(['all', 'one']).optional(),
    /** Only the images of one stack, by its first image's id: a stack opened in place. */
    stackOf: z.string().optional(),
    /**
     * Which grouping `stacks`, `stackOf` and each image's `stack` mean: near-identical (the
     * default) or the looser "similar" (src-shared/image-stacks.ts).
     */
    stackLevel: z.enum(['near', 'similar']).optional(),
    /** Every image made from the same prompt as this one (by id): its variants, for the survey. */
    promptOf: z.string().optional(),
    /**
     * Only images whose prompt's parts (src-shared/prompt-parts.ts) have these values: a row of
     * "What worked" opened in the Library. '' means the image has no value for that name.
     */
    parts: z.record(z.string().min(1).max(100), z.string().max(10_000)).optional(),
  })
  .strict();
export type LibraryFilter = z.input<typeof libraryFilterSchema>;

/** A window of the filtered list: the gallery asks for the rows it shows, never the whole library. */
export const LIBRARY_WINDOW_MAX = 1000;
export const libraryQuerySchema = libraryFilterSchema
  .extend({
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(LIBRARY_WINDOW_MAX).default(200),
  })
  .strict();
export type LibraryQuery = z.input<typeof libraryQuerySchema>;

/** Ids of the filtered list, in its order, from `from` (inclusive) to `to` (exclusive): for select-all and ranges. */
export const libraryIdsQuerySchema = libraryFilterSchema
  .extend({
    start: z.number().int().min(0).default(0),
    end: z.number().int().min(0).optional(),
  })
  .strict();
export type LibraryIdsQuery = z.input<typeof libraryIdsQuerySchema>;
export const libraryPositionQuerySchema = libraryFilterSchema
  .extend({ id: z.string().min(1).max(2000) })
  .strict();
export type LibraryPositionQuery = z.input<typeof libraryPositionQuerySchema>;
/** Enough for a quarter of a million images; a list longer than this is refused, not cut. */
export const LIBRARY_IDS_MAX = 300_000;

/** Why a library folder could not be read, or only in part. */
export const folderProblemSchema = z.enum([
  'NO_BATCH_FILE',
  'FILE_NOT_JSON',
  'FILE_NOT_BATCH',
  'FILE_UNREADABLE',
  'IMAGES_MISSING',
  'REVIEW_DAMAGED',
  /** One person's marks file is damaged, from a newer version, or not the studio's: only their marks are not shown. */
  'PERSON_MARKS_UNREADABLE',
  /** Not damage: its files are still arriving (a copy or a sync under way); it completes itself. */
  'ARRIVING',
]);

/** One window of the filtered list; `total` is the length of the whole filtered list. */
export const libraryResultSchema = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  items: z.array(libraryImageSchema),
});
export type LibraryResult = z.infer<typeof libraryResultSchema>;

/** The catalog being built or brought up to date: folders read so far, of all there are to read. */
/**
 * A first build (or a large change) under way: folders done of total, and about how many images the
 * library holds once done (those indexed, plus the rest at the average so far): never a partial
 * count shown as the total.
 */
export const libraryIndexingSchema = z
  .object({ done: z.number().int(), total: z.number().int(), imagesAbout: z.number().int().optional() })
  .nullable();

/** What the filters offer and what the catalog knows of the whole library; changes only with folders. */
export const libraryOverviewSchema = z.object({
  root: z.string(),
  images: z.number().int(),
  indexing: libraryIndexingSchema,
  /** The collections (boards), with how many of their images are in the library now. */
  collections: z.array(z.object({ id: z.string(), name: z.string(), images: z.number().int() })),
  batches: z.array(z.object({ id: z.string(), taskName: z.string(), images: z.number().int() })),
  models: z.array(z.string()),
  /** The people whose marks the library holds, this studio's own first, with how many images each marked. */
  people: z.array(z.object({ id: z.string(), name: z.string(), me: z.boolean(), marked: z.number().int() })),
  /**
   * Folders that could not be read: reported and skipped, never fatal. `reason` is what the screen
   * says, in words, in the user's language; `message` is the same in English for scripts.
   */
  problems: z.array(
    z.object({
      folder: z.string(),
      message: z.string(),
      reason: folderProblemSchema,
      file: z.string().optional(),
      missing: z.number().int().optional(),
      total: z.number().int().optional(),
    }),
  ),
});
export type LibraryOverview = z.infer<typeof libraryOverviewSchema>;

/** Marks as they are now on disk, carried by `library.changed` so open windows update those cells in place. */
export const libraryMarkChangeSchema = z.object({
  id: z.string(),
  mark: reviewMarkSchema,
  stars: z.number().int().min(0).max(5),
  /** The team's marks after the change, where anyone else has marked the image. */
  team: teamMarksSchema.optional(),
});
export type LibraryMarkChange = z.infer<typeof libraryMarkChangeSchema>;

/**
 * Why the library changed. `marks`: only the listed cells changed (no list is fetched again).
 * `folders`: batch folders arrived, changed or went away (a download, a realtime save, a copy in
 * the file manager, a rebuilt catalog): lists and the overview are asked again. `indexing`: the
 * catalog is being built; progress only. `collections`: boards were made, renamed, deleted or
 * changed their images: the overview (and a list filtered by a board) is asked again.
 */
export const libraryChangedSchema = z.object({
  reason: z.enum(['marks', 'folders', 'indexing', 'collections']),
  marks: z.array(libraryMarkChangeSchema).optional(),
  indexing: libraryIndexingSchema.optional(),
});
export type LibraryChanged = z.infer<typeof libraryChangedSchema>;

export const libraryDetailSchema = libraryImageSchema.extend({
  folder: z.string(),
  file: z.string(),
  path: z.string(),
  rowIndex: z.number().int().nullable(),
  parameters: z.record(z.string(), z.unknown()),
});
export type LibraryDetail = z.infer<typeof libraryDetailSchema>;

/** A PDF contact sheet for client review: page size and orientation, images per page, a title. */
export const contactSheetOptionsSchema = z
  .object({
    title: z.string().trim().max(200).default(''),
    pageSize: z.enum(['A4', 'A3', 'Letter']).default('A4'),
    orientation: z.enum(['portrait', 'landscape']).default('portrait'),
    perPage: z
      .union([z.literal(4), z.literal(6), z.literal(9), z.literal(12), z.literal(20), z.literal(30)])
      .default(12),
  })
  .strict();
export type ContactSheetOptions = z.output<typeof contactSheetOptionsSchema>;
