import { z } from 'zod';
import { byId, none } from './method-inputs';
import {
  LIBRARY_IDS_MAX,
  contactSheetOptionsSchema,
  libraryDetailSchema,
  libraryIdsQuerySchema,
  libraryImageSchema,
  libraryOverviewSchema,
  libraryPositionQuerySchema,
  libraryQuerySchema,
  libraryResultSchema,
  reviewMarkSchema,
} from './library-view';
import { whatWorkedQuerySchema, whatWorkedResultSchema } from './what-worked';

/**
 * Where an export went: desktop asks where to save with the native dialog and writes it there
 * (`path`; `canceled` when the dialog was dismissed); browser mode prepares it for one GET of
 * `downloadUrl` with the run's token. The file itself never travels in JSON.
 */
const delivered = z.object({
  name: z.string(),
  canceled: z.boolean(),
  path: z.string().nullable(),
  downloadUrl: z.string().nullable(),
});

/** The library's part of the StudioApi contract (studio-api.ts): its images, marks, exports and boards. */
export const libraryMethods = {
  /** The library: every downloaded image, filtered, searched and sorted; works with no network. */
  'library.query': { input: libraryQuerySchema, output: libraryResultSchema },
  /** Batches, models, folder problems and the image count, for the filters and the header. */
  'library.overview': { input: none, output: libraryOverviewSchema },
  /** Ids of the filtered list (or a range of it), for select-all, shift-click ranges and exports. */
  'library.ids': { input: libraryIdsQuerySchema, output: z.array(z.string()).max(LIBRARY_IDS_MAX) },
  /**
   * Where an image is now in the filtered list (from 0), or null where the list does not hold it:
   * the focus and the loupe stay on their image when a batch arrives above it.
   */
  'library.position': {
    input: libraryPositionQuerySchema,
    output: z.object({ index: z.number().int().min(0).nullable() }),
  },
  'library.detail': { input: byId, output: libraryDetailSchema },
  /** "What worked": the filtered images by their prompts' parts (or model), picks counted, best first. */
  'library.whatWorked': { input: whatWorkedQuerySchema, output: whatWorkedResultSchema },
  /** The review marks of these images now: read before a mark, so that Ctrl+Z can put them back. */
  'library.marksOf': {
    input: z.object({ ids: z.array(z.string()).min(1).max(20_000) }).strict(),
    output: z.array(z.object({ id: z.string(), mark: reviewMarkSchema, stars: z.number().int() })),
  },
  /** Review marks, kept in each batch folder's review.json. */
  'library.mark': {
    input: z
      .object({
        ids: z.array(z.string()).min(1).max(20_000),
        mark: reviewMarkSchema.optional(),
        stars: z.number().int().min(0).max(5).optional(),
      })
      .strict(),
    output: z.number().int(),
  },
  /** The chosen images as one ZIP, delivered as `delivered` says. */
  'library.exportZip': {
    input: z.object({ ids: z.array(z.string()).min(1).max(20_000) }).strict(),
    output: delivered.extend({ images: z.number().int() }),
  },
  /** A PDF contact sheet of images, delivered like a ZIP export (save dialog, or a one-time download). */
  'library.exportContactSheet': {
    input: z
      .object({
        ids: z.array(z.string()).min(1).max(20_000),
        options: contactSheetOptionsSchema,
        /** "What worked" for the filter the images came from: its top rows print at the foot of the first page. */
        whatWorked: whatWorkedQuerySchema.optional(),
      })
      .strict(),
    output: delivered.extend({ images: z.number().int(), pages: z.number().int() }),
  },
  /** The "What worked" table as CSV or XLSX, delivered like a ZIP export (save dialog, or a one-time download). */
  'library.exportWhatWorked': {
    input: z.object({ query: whatWorkedQuerySchema, format: z.enum(['csv', 'xlsx']) }).strict(),
    output: delivered.extend({ rows: z.number().int() }),
  },
  'library.exportFolder': {
    input: z.object({ ids: z.array(z.string()).min(1).max(20_000), folder: z.string().min(1) }).strict(),
    output: z.object({ path: z.string(), images: z.number().int() }),
  },
  /** Collections (boards) of library images, kept in the library folder's collections.json. */
  'collections.create': {
    input: z
      .object({ name: z.string().max(200), ids: z.array(z.string()).max(LIBRARY_IDS_MAX).default([]) })
      .strict(),
    output: z.object({ id: z.string(), name: z.string() }),
  },
  'collections.rename': {
    input: z.object({ id: z.string(), name: z.string().max(200) }).strict(),
    output: z.null(),
  },
  'collections.delete': { input: byId, output: z.null() },
  /** Puts images into a collection (`present: true`) or takes them out; answers how many changed. */
  'collections.setImages': {
    input: z
      .object({ id: z.string(), ids: z.array(z.string()).min(1).max(LIBRARY_IDS_MAX), present: z.boolean() })
      .strict(),
    output: z.number().int(),
  },
  /** The same row of the same run on every model (this image included), for "Compare across models". */
  'library.acrossModels': { input: byId, output: z.array(libraryImageSchema) },
  /** What an image was made from and what was made from it, generations deep. */
  'library.lineage': {
    input: byId,
    output: z.object({ ancestors: z.array(libraryImageSchema), descendants: z.array(libraryImageSchema) }),
  },
} as const;
