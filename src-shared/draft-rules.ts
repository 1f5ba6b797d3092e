import type { Draft } from './draft';
import { customIdOf, expandedIds, referencesOfItem, REFERENCE_MIMES } from './draft-rows';

/** The gateway's limits (batch-image-api.md and gateway-notes.md); deployments may lower them. */
export const GATEWAY_LIMITS = {
  maxItems: 200,
  maxOutputImages: 200,
  maxOutputCount: 4,
  maxPromptBytes: 8000,
  maxReferenceBytes: 10 * 1024 * 1024,
  maxReferencesPerJob: 1000,
  maxReferenceBytesPerJob: 128 * 1024 * 1024,
  maxMetadataKeys: 20,
  maxCustomIdLength: 200,
};
export type GatewayLimits = typeof GATEWAY_LIMITS;

/** Reference images per task by model name, as deployed gateways count them: 0 for other models. */
export function referenceLimitOf(model: string): number {
  if (model.includes('flash-image')) return 3;
  if (model.includes('pro-image')) return 14;
  return 0;
}

export type IssueCode =
  | 'PROMPT_EMPTY'
  | 'PROMPT_TOO_LONG'
  | 'OUTPUT_COUNT'
  | 'DUPLICATE_ID'
  | 'CUSTOM_ID_TOO_LONG'
  | 'TOO_MANY_REFERENCES'
  | 'REFERENCE_MISSING'
  | 'REFERENCE_TOO_LARGE'
  | 'REFERENCE_TYPE'
  | 'NO_MODEL'
  | 'NO_ITEMS'
  | 'TOO_MANY_ITEMS'
  | 'TOO_MANY_IMAGES'
  | 'TOO_MANY_REFERENCES_TOTAL'
  | 'REFERENCES_TOO_LARGE_TOTAL'
  | 'METADATA_KEYS';

export interface DraftIssue {
  code: IssueCode;
  /** Values for the message: sizes, limits, ids. */
  params: Record<string, string | number>;
}

export interface DraftReport {
  ok: boolean;
  rows: { index: number; issues: DraftIssue[] }[];
  batch: DraftIssue[];
  totals: { rows: number; images: number; referenceBytes: number; referenceCount: number };
}

const encoder = new TextEncoder();
/**
 * Each prompt's size in UTF-8 bytes, kept per row object: an edit makes a new object for the row
 * edited only, so checking a draft of 2,000 rows after a keystroke encodes one prompt, not 2,000.
 */
const promptBytes = new WeakMap<object, { prompt: string; bytes: number }>();
function bytesOfPrompt(item: { prompt: string }): number {
  const known = promptBytes.get(item);
  if (known && known.prompt === item.prompt) return known.bytes;
  const bytes = encoder.encode(item.prompt).length;
  promptBytes.set(item, { prompt: item.prompt, bytes });
  return bytes;
}

/**
 * Checks a draft against the gateway's rules before anything is sent, row by row, so a designer
 * sees what to fix where it is. Mirrors the sandbox and deployed gateways: prompts in UTF-8 bytes,
 * counts after output_count expansion.
 */
export function validateDraft(draft: Draft, limits: GatewayLimits = GATEWAY_LIMITS): DraftReport {
  const references = new Map(draft.references.map((r) => [r.id, r]));
  const refLimit = referenceLimitOf(draft.model);
  const rows: DraftReport['rows'] = [];
  const batch: DraftIssue[] = [];
  const owners = new Map<string, number[]>();
  let images = 0;
  let referenceCount = 0;
  let referenceBytes = 0;

  draft.items.forEach((item, index) => {
    const issues: DraftIssue[] = [];
    const bytes = bytesOfPrompt(item);
    if (item.prompt.trim() === '') issues.push({ code: 'PROMPT_EMPTY', params: {} });
    else if (bytes > limits.maxPromptBytes) {
      issues.push({ code: 'PROMPT_TOO_LONG', params: { bytes, limit: limits.maxPromptBytes } });
    }
    const count = item.outputCount;
    if (!Number.isInteger(count) || count < 1 || count > limits.maxOutputCount) {
      issues.push({ code: 'OUTPUT_COUNT', params: { count, limit: limits.maxOutputCount } });
    }
    const id = customIdOf(item, index);
    if (id.length > limits.maxCustomIdLength)
      issues.push({ code: 'CUSTOM_ID_TOO_LONG', params: { limit: limits.maxCustomIdLength } });
    const safeCount = Number.isInteger(count) && count >= 1 ? Math.min(count, limits.maxOutputCount) : 1;
    for (const taskId of expandedIds(id, safeCount))
      owners.set(taskId, [...(owners.get(taskId) ?? []), index]);

    const refs = referencesOfItem(draft, item);
    if (refs.length > refLimit) {
      issues.push({
        code: 'TOO_MANY_REFERENCES',
        params: { count: refs.length, limit: refLimit, model: draft.model },
      });
    }
    for (const refId of refs) {
      const ref = references.get(refId);
      if (!ref) {
        issues.push({ code: 'REFERENCE_MISSING', params: { id: refId.slice(0, 12) } });
        continue;
      }
      if (!(REFERENCE_MIMES as readonly string[]).includes(ref.mime))
        issues.push({ code: 'REFERENCE_TYPE', params: { name: ref.name, mime: ref.mime } });
      if (ref.bytes > limits.maxReferenceBytes) {
        issues.push({
          code: 'REFERENCE_TOO_LARGE',
          params: { name: ref.name, bytes: ref.bytes, limit: limits.maxReferenceBytes },
        });
      }
      referenceBytes += ref.bytes * safeCount;
    }
    referenceCount += refs.length * safeCount;
    images += safeCount;
    rows.push({ index, issues });
  });

  for (const [taskId, indexes] of owners) {
    if (indexes.length < 2) continue;
    for (const index of new Set(indexes))
      rows[index]!.issues.push({ code: 'DUPLICATE_ID', params: { id: taskId } });
  }

  if (!draft.model.trim()) batch.push({ code: 'NO_MODEL', params: {} });
  if (draft.items.length === 0) batch.push({ code: 'NO_ITEMS', params: {} });
  if (draft.items.length > limits.maxItems)
    batch.push({ code: 'TOO_MANY_ITEMS', params: { count: draft.items.length, limit: limits.maxItems } });
  if (images > limits.maxOutputImages)
    batch.push({ code: 'TOO_MANY_IMAGES', params: { count: images, limit: limits.maxOutputImages } });
  if (referenceCount > limits.maxReferencesPerJob) {
    batch.push({
      code: 'TOO_MANY_REFERENCES_TOTAL',
      params: { count: referenceCount, limit: limits.maxReferencesPerJob },
    });
  }
  if (referenceBytes > limits.maxReferenceBytesPerJob) {
    batch.push({
      code: 'REFERENCES_TOO_LARGE_TOTAL',
      params: { bytes: referenceBytes, limit: limits.maxReferenceBytesPerJob },
    });
  }
  if (Object.keys(draft.metadata ?? {}).length > limits.maxMetadataKeys) {
    batch.push({
      code: 'METADATA_KEYS',
      params: { count: Object.keys(draft.metadata ?? {}).length, limit: limits.maxMetadataKeys },
    });
  }

  const uniqueRows = rows
    .map((r) => ({ index: r.index, issues: dedupe(r.issues) }))
    .filter((r) => r.issues.length > 0);
  return {
    ok: uniqueRows.length === 0 && batch.length === 0,
    rows: uniqueRows,
    batch,
    totals: { rows: draft.items.length, images, referenceBytes, referenceCount },
  };
}

function dedupe(issues: DraftIssue[]): DraftIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.code}:${JSON.stringify(i.params)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
