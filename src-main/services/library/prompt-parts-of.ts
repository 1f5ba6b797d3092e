import type { PromptParts } from '../../../src-shared/prompt-parts';
import { fillTemplate } from '../../../src-shared/prompt-template';

/** An image's parts as the catalog keeps them: each variable's value, and the template where known. */
export interface ImageParts {
  template?: string;
  values: Record<string, string>;
}

/**
 * The parts of an image's prompt as the catalog keeps them, from its draft row, or null. Parts
 * count only while they still make the prompt the image was made with: a row edited by hand after
 * the template made it keeps its old parts in the draft, and they no longer describe it.
 */
export function partsOfRow(parts: PromptParts | undefined, prompt: string): ImageParts | null {
  if (!parts || !Object.keys(parts.values).length) return null;
  if (parts.template === undefined) return { values: parts.values };
  if (fillTemplate(parts.template, parts.values) !== prompt) return null;
  return { template: parts.template, values: parts.values };
}
