import { RUN_METADATA_KEY } from './batch-run';
import type { Draft } from './draft';
import { referencesOfItem } from './draft-rows';

/**
 * 64-bit FNV-1a over UTF-16 code units, as two 32-bit halves with different offsets. Pure and
 * synchronous, so the window and main compute the same value without a crypto API; it only has to
 * tell drafts apart, not resist anyone.
 */
function fnv64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c ^ (a >>> 7), 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * What a draft would buy: model, output format, metadata, and per row the prompt, the number of
 * images and the reference images (by content: their ids are SHA-256 of the bytes). The name, the
 * draft id, the row ids and the time do not count: renaming a draft does not make it a new order.
 * Nor does the run id a multi-model send adds to each batch's metadata: it is new on every click,
 * and the same prompts on the same model are the same order whether sent alone or in a run.
 */
export function draftFingerprint(
  draft: Pick<Draft, 'model' | 'items' | 'sharedReferenceIds' | 'responseMime' | 'metadata'>,
): string {
  const metadata = Object.entries(draft.metadata ?? {})
    .filter(([key]) => key !== RUN_METADATA_KEY)
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  const canonical = JSON.stringify([
    draft.model,
    draft.responseMime ?? 'image/png',
    metadata,
    draft.items.map((item) => [item.prompt, item.outputCount, referencesOfItem(draft, item)]),
  ]);
  return `v1-${fnv64(canonical)}`;
}
