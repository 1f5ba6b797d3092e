import { z } from 'zod';
import { byId, none } from './method-inputs';
import { RUN_MAX_MODELS } from './batch-run';
import {
  batchItemViewSchema,
  batchViewSchema,
  costSummarySchema,
  downloadProgressSchema,
  sentDraftSchema,
  submissionViewSchema,
} from './batch-view';
import { connectionStatusSchema } from './connection';
import { sendConfirmationSchema } from './send-refusal';
import { draftSchema, referenceImageSchema } from './draft';
import { realtimeGenerateSchema, realtimeJobSchema } from './realtime-view';
import { kbCheckedRowSchema, kbModeSchema, kbPushSchema, kbRowSchema, kbSearchResultSchema } from './kb-view';
import { libraryMethods } from './library-api';
import { libraryChangedSchema } from './library-view';
import { personStatusSchema } from './person';
import { profileInputSchema, profileSchema } from './profile';
import { settingsPatchSchema, settingsSchema } from './settings';
import { updateMethods, updateStatusSchema } from './updates';
import {
  budgetCheckInputSchema,
  budgetCheckSchema,
  budgetStatusSchema,
  spendingQuerySchema,
  spendingSchema,
  timeZoneSchema,
} from './spending-view';

export const contextMenuSchema = z
  .object({
    items: z
      .array(
        z
          .object({ id: z.string().min(1).max(80), label: z.string().min(1).max(200), enabled: z.boolean() })
          .strict(),
      )
      .min(1)
      .max(40),
    x: z.number().int().min(0).max(100_000),
    y: z.number().int().min(0).max(100_000),
  })
  .strict();
export type ContextMenuRequest = z.infer<typeof contextMenuSchema>;
const submitResultSchema = z.object({ submission: submissionViewSchema, batch: batchViewSchema.optional() });

export const appInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['desktop', 'browser']),
  dataDir: z.string(),
  /** How API keys are kept: encrypted by the OS, or a 0600 file in browser mode. */
  secretStorage: z.enum(['os-encrypted', 'file-0600']),
  sandboxUrl: z.string().optional(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/**
 * The one contract between the renderer and main. Every call is a method here with a schema for
 * its input and its output; both hosts (Electron IPC and the browser-mode HTTP API) serve it.
 * Later features add methods to this table; the hosts need no change.
 */
export const studioMethods = {
  'app.info': { input: none, output: appInfoSchema },
  /**
   * A part of the window that failed to draw, for the log file (an error boundary caught it). The
   * main process redacts keys and drops reports beyond a few a minute; false when it dropped this one.
   */
  'app.logRendererError': {
    input: z.object({ where: z.string().min(1).max(80), message: z.string().max(2000) }).strict(),
    output: z.boolean(),
  },
  'settings.get': { input: none, output: settingsSchema },
  'settings.update': { input: settingsPatchSchema, output: settingsSchema },
  'profiles.list': { input: none, output: z.array(profileSchema) },
  'profiles.save': { input: profileInputSchema, output: profileSchema },
  'profiles.delete': { input: byId, output: z.array(profileSchema) },
  'profiles.activate': { input: byId, output: settingsSchema },
  'profiles.test': { input: byId, output: connectionStatusSchema },
  'connection.status': { input: none, output: connectionStatusSchema },
  'connection.check': { input: none, output: connectionStatusSchema },
  /** Desktop only: a native folder picker. Browser mode answers null; Settings takes a typed path. */
  'dialog.pickFolder': {
    input: z.object({ title: z.string().max(200).optional() }).strict(),
    output: z.string().nullable(),
  },
  /**
   * Desktop: the right-click menu as the OS draws it, at a point of the window; answers the item
   * chosen (null when dismissed). Browser mode answers `native: false`, and the page draws its own.
   */
  'dialog.contextMenu': {
    input: contextMenuSchema,
    output: z.object({ native: z.boolean(), chosen: z.string().nullable() }),
  },
  /** Opens an http(s) link in the system browser, after an allow-list check. */
  'shell.openExternal': { input: z.object({ url: z.string().url() }).strict(), output: z.boolean() },

  'batches.models': { input: none, output: z.array(z.string()) },
  'batches.list': { input: none, output: z.array(batchViewSchema) },
  'batches.get': { input: byId, output: batchViewSchema },
  'batches.items': { input: byId, output: z.array(batchItemViewSchema) },
  /**
   * Sends a draft as a batch, exactly once; the answer carries the estimate and the hold. Main's send
   * guard refuses content being sent (STUDIO_SEND_IN_PROGRESS), content sent before unless `confirm`
   * names that submission (STUDIO_SENT_BEFORE), and a send past the budget unless confirmed
   * (STUDIO_BUDGET_CONFIRM). `timeZone` sets the budget's month (main's own zone when absent).
   */
  'batches.submit': {
    input: z
      .object({
        draft: draftSchema,
        parentBatchId: z.string().optional(),
        confirm: sendConfirmationSchema.optional(),
        timeZone: timeZoneSchema.optional(),
      })
      .strict(),
    output: submitResultSchema,
  },
  /**
   * One draft on several models: one batch per model, as one run, under the same guard as a submit
   * (all models decided before any is sent). `runId` is made by the window once per click: the same
   * run sent again creates nothing new.
   */
  'batches.submitRun': {
    input: z
      .object({
        runId: z.string().regex(/^[\w-]{8,64}$/),
        draft: draftSchema,
        models: z.array(z.string().min(1).max(200)).min(1).max(RUN_MAX_MODELS),
        confirm: sendConfirmationSchema.optional(),
        timeZone: timeZoneSchema.optional(),
      })
      .strict(),
    output: z.object({ runId: z.string(), results: z.array(submitResultSchema) }),
  },
  'batches.submissions': { input: none, output: z.array(submissionViewSchema) },
  /** The last time a draft with this content (draftFingerprint) was sent from the active profile. */
  'batches.lastSent': {
    input: z.object({ fingerprint: z.string().min(1) }).strict(),
    output: sentDraftSchema,
  },
  'batches.sync': {
    input: z
      .object({
        status: z.string().optional(),
        taskName: z.string().optional(),
        downloaded: z.boolean().optional(),
        from: z.number().optional(),
        to: z.number().optional(),
      })
      .strict(),
    /** `gone`: local batches the server no longer has, now marked so (files and prompts kept). */
    output: z.object({
      added: z.number().int(),
      updated: z.number().int(),
      gone: z.number().int().optional(),
    }),
  },
  'batches.cancel': { input: byId, output: batchViewSchema },
  /**
   * Brings a completed batch into the library. `missing`: for a batch already there, fetch only
   * the images its folder lacks (marks kept, nothing replaced). `replace` (the default): download
   * it whole and replace its folder, keeping marks.
   */
  'batches.download': {
    input: z
      .object({ id: z.string().min(1), mode: z.enum(['missing', 'replace']).default('replace') })
      .strict(),
    output: batchViewSchema,
  },
  'batches.deleteOutputs': { input: byId, output: batchViewSchema },
  'batches.deleteRecord': {
    input: z.object({ id: z.string().min(1), deleteLocalFiles: z.boolean().default(false) }).strict(),
    output: z.boolean(),
  },
  /** A batch of the failed items only: at most one per failed set unless `confirm` names the earlier. */
  'batches.retryFailed': {
    input: z
      .object({
        id: z.string().min(1),
        confirm: sendConfirmationSchema.optional(),
        timeZone: timeZoneSchema.optional(),
      })
      .strict(),
    output: submitResultSchema,
  },
  'batches.costs': { input: none, output: costSummarySchema },
  /** The active profile's spending per day (estimated, held, actual, spent) in the user's time zone. */
  'batches.spending': { input: spendingQuerySchema, output: spendingSchema },
  /** This month's spending against the active profile's monthly budget. */
  'batches.budget': { input: z.object({ timeZone: timeZoneSchema }).strict(), output: budgetStatusSchema },
  /** Asked before a submit: would this draft's estimate take the month past the budget? */
  'batches.budgetCheck': { input: budgetCheckInputSchema, output: budgetCheckSchema },
  /**
   * Makes an item's preview (from the library, or fetched from the gateway) and answers the image
   * path it is then served at (src-shared/image-paths.ts): errors arrive here, with their codes.
   */
  'batches.preview': {
    input: z.object({ id: z.string().min(1), customId: z.string().min(1) }).strict(),
    output: z.object({ path: z.string(), source: z.enum(['library', 'gateway']) }),
  },
  /** Opens the batch's folder in the file manager (desktop); answers its path either way. */
  'batches.openFolder': { input: byId, output: z.object({ path: z.string(), opened: z.boolean() }) },

  'drafts.list': {
    input: none,
    output: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        rows: z.number().int(),
        updatedAt: z.number().int().optional(),
      }),
    ),
  },
  'drafts.get': { input: byId, output: draftSchema.nullable() },
  'drafts.save': {
    input: z.object({ draft: draftSchema }).strict(),
    output: z.object({ id: z.string(), updatedAt: z.number().int() }),
  },
  'drafts.delete': { input: byId, output: z.boolean() },
  /** Reads a CSV, TSV, XLSX, JSON, JSONL or text file into raw rows, for the column mapping. */
  'drafts.readTable': {
    input: z.object({ name: z.string().max(500), dataBase64: z.string().max(100 * 1024 * 1024) }).strict(),
    output: z.object({
      format: z.enum(['csv', 'tsv', 'xlsx', 'json', 'jsonl', 'txt']),
      columns: z.array(z.string()),
      hasHeader: z.boolean(),
      rows: z.array(z.array(z.string())),
    }),
  },
  'drafts.exportCsv': { input: z.object({ draft: draftSchema }).strict(), output: z.string() },

  /** Stores a reference image by content, converting formats the gateway does not take. */
  'references.add': {
    input: z.object({ name: z.string().max(500), dataBase64: z.string().max(200 * 1024 * 1024) }).strict(),
    output: referenceImageSchema.extend({ converted: z.boolean() }),
  },
  ...libraryMethods,
  /**
   * "Use as reference" / "Vary": a library image or a realtime result stored as a reference image,
   * its bytes unchanged, read by the main process (no bytes in JSON), remembering where it came from.
   */
  'reuse.reference': {
    input: z.union([
      z.object({ libraryId: z.string() }).strict(),
      z.object({ realtimeJobId: z.string() }).strict(),
      z.object({ batchId: z.string(), customId: z.string() }).strict(),
    ]),
    output: referenceImageSchema,
  },
  /**
   * "Regenerate": what a library image was made with: its prompt, its model and its reference
   * images (from its batch folder's references/), ready to open in Compose.
   */
  'reuse.recipe': {
    input: byId,
    output: z.object({
      prompt: z.string(),
      model: z.string(),
      customId: z.string(),
      references: z.array(referenceImageSchema),
      /** References the batch folder no longer holds. */
      missingReferences: z.number().int(),
    }),
  },
  /** This studio's person (name and id), and a notice if its id was changed to tell it from a copy. */
  'people.me': { input: none, output: personStatusSchema },
  'library.reveal': { input: byId, output: z.object({ path: z.string(), opened: z.boolean() }) },
  'realtime.models': { input: none, output: z.array(z.string()) },
  'realtime.generate': { input: realtimeGenerateSchema, output: realtimeJobSchema },
  'realtime.jobs': { input: none, output: z.array(realtimeJobSchema) },
  'realtime.cancel': { input: byId, output: realtimeJobSchema },
  /** Saves a result into the library's Realtime collection; answers its library id. */
  'realtime.save': { input: byId, output: z.string() },
  /**
   * Knowledge base: rows from a CSV file (question,answer), as its bytes: the file's encoding (UTF-8,
   * UTF-16, GB18030 from Chinese Excel, Windows-1252) is worked out in main, as for a prompt table.
   */
  'kb.readCsv': {
    input: z.object({ name: z.string().max(500), dataBase64: z.string().max(70 * 1024 * 1024) }).strict(),
    output: z.array(kbRowSchema),
  },
  'kb.template': { input: none, output: z.string() },
  'kb.check': {
    input: z.object({ rows: z.array(kbRowSchema).max(100_000), mode: kbModeSchema }).strict(),
    output: z.array(kbCheckedRowSchema),
  },
  'kb.push': {
    input: z
      .object({
        rows: z.array(kbRowSchema).min(1).max(100_000),
        mode: kbModeSchema,
        prompt: z.string().max(10_000).optional(),
        kbId: z.string().optional(),
        chunkSize: z.number().int().min(1).max(1000).default(50),
      })
      .strict(),
    output: kbPushSchema,
  },
  'kb.pushes': { input: none, output: z.array(kbPushSchema) },
  'kb.resume': { input: byId, output: kbPushSchema },
  /** The picked images' prompts as q, with notes, rating, batch and file as a. */
  'kb.pushFromLibrary': {
    input: z.object({ ids: z.array(z.string()).min(1).max(20_000), kbId: z.string().optional() }).strict(),
    output: kbPushSchema,
  },
  'kb.search': {
    input: z
      .object({
        prompts: z.array(z.string().min(1)).min(1).max(50),
        similarity: z.number().min(0).max(1),
        limit: z.number().int().min(1).max(100),
        appId: z.string().optional(),
      })
      .strict(),
    output: kbSearchResultSchema,
  },
  'kb.history': { input: none, output: z.array(kbSearchResultSchema) },
  /** A smaller JPEG of an oversize reference image, made only when the user asks. */
  'references.downscale': {
    input: z.object({ reference: referenceImageSchema }).strict(),
    output: referenceImageSchema.extend({ converted: z.boolean() }),
  },

  ...updateMethods,
} as const;

/** Pushed from main to the renderer; the renderer never polls. */
export const studioEvents = {
  'settings.changed': settingsSchema,
  'profiles.changed': z.array(profileSchema),
  'connection.changed': connectionStatusSchema,
  'batch.updated': batchViewSchema,
  /** A batch reached a terminal state: completed, failed, cancelled or output_deleted. */
  'batch.finished': batchViewSchema,
  /** A profile's cost totals after a change that moved them; the window never asks per update. */
  'costs.changed': costSummarySchema,
  'submission.updated': submissionViewSchema,
  'download.progress': downloadProgressSchema,
  'realtime.updated': realtimeJobSchema,
  'kb.pushProgress': kbPushSchema,
  /** The library changed on disk: a batch arrived, or marks were set elsewhere. */
  'library.changed': libraryChangedSchema,
  /** The desktop host asks the window to show a batch (a notification was clicked). */
  'app.showBatch': z.object({ id: z.string() }),
  /** Every change of the update's state: found, downloading, ready, waiting for work, checked. */
  'updates.changed': updateStatusSchema,
} as const;

export type StudioMethod = keyof typeof studioMethods;
export type StudioEvent = keyof typeof studioEvents;
export type MethodInput<M extends StudioMethod> = z.input<(typeof studioMethods)[M]['input']>;
export type MethodOutput<M extends StudioMethod> = z.output<(typeof studioMethods)[M]['output']>;
export type EventPayload<E extends StudioEvent> = z.output<(typeof studioEvents)[E]>;

/** What the renderer holds as `window.studio` (desktop) or its HTTP twin (browser mode). */
export interface StudioApi {
  call<M extends StudioMethod>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  on<E extends StudioEvent>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function isStudioMethod(name: string): name is StudioMethod {
  return Object.prototype.hasOwnProperty.call(studioMethods, name);
}
