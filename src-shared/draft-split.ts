import type { Draft } from './draft';
import { referencesOfItem } from './draft-rows';
import { GATEWAY_LIMITS, type GatewayLimits } from './draft-rules';

/**
 * Cuts a draft that is over a batch's limits into drafts that each fit: rows stay whole and in
 * order, and each part keeps only the references its rows use.
 */
export function splitDraft(draft: Draft, limits: GatewayLimits = GATEWAY_LIMITS): Draft[] {
  const references = new Map(draft.references.map((r) => [r.id, r]));
  const parts: Draft['items'][] = [[]];
  let images = 0;
  let refBytes = 0;
  let refCount = 0;
  for (const item of draft.items) {
    const count = Math.max(1, Math.min(item.outputCount, limits.maxOutputCount));
    const refs = referencesOfItem(draft, item);
    const bytes = refs.reduce((sum, id) => sum + (references.get(id)?.bytes ?? 0), 0) * count;
    const current = parts[parts.length - 1]!;
    const full =
      current.length > 0 &&
      (current.length + 1 > limits.maxItems ||
        images + count > limits.maxOutputImages ||
        refBytes + bytes > limits.maxReferenceBytesPerJob ||
        refCount + refs.length * count > limits.maxReferencesPerJob);
    if (full) {
      parts.push([]);
      images = 0;
      refBytes = 0;
      refCount = 0;
    }
    parts[parts.length - 1]!.push(item);
    images += count;
    refBytes += bytes;
    refCount += refs.length * count;
  }
  if (parts.length === 1) return [draft];
  return parts.map((items, i) => {
    const used = new Set([...draft.sharedReferenceIds, ...items.flatMap((item) => item.referenceIds)]);
    return {
      ...draft,
      id: `${draft.id}-part-${i + 1}`,
      name: `${draft.name || 'Draft'} (${i + 1}/${parts.length})`,
      items,
      references: draft.references.filter((r) => used.has(r.id)),
    };
  });
}
