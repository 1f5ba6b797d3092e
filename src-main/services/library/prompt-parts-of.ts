import type { PromptParts } from '../../../src-shared/prompt-parts';
import { fillTemplate } from '../../../src-shared/prompt-template';

/**
 * The parts of an image's prompt as the catalog keeps them, from its draft row, or null. Parts
 * count only while they still make the prompt the image was made with: a row edited by hand after
 * the template made it keeps its old parts in the draft, and they no longer describe it.
 */
export function partsOfRow(parts: PromptParts | undefined, prompt: string): Record<string, string> | null {
  if (!parts) return null;
  const values = Object.entries(parts.values);
  if (!values.length) return null;
  if (parts.template !== undefined && fillTemplate(parts.template, parts.values) !== prompt) return null;
  return Object.fromEntries(values);
}
