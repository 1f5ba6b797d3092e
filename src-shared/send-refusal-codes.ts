// The codes alone, free of zod (send-refusal.ts holds the schemas): Compose's submit bar reads
// them, and the first screen's script stays small (issue 36).

/** The refusal codes: only the first two are questions; the last is a wait. */
export const SEND_REFUSALS = {
  sentBefore: 'STUDIO_SENT_BEFORE',
  budget: 'STUDIO_BUDGET_CONFIRM',
  inProgress: 'STUDIO_SEND_IN_PROGRESS',
} as const;
