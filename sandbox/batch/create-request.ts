import { COMMON_RATIOS, findModel, referenceLimitFor, type SandboxConfig } from '../config';
import { sniffImage } from '../image-render';
import { BatchError } from './batch-error';

export interface ReferenceUpload {
  mime: string;
  data: Buffer;
}

export interface ExpandedTask {
  customId: string;
  prompt: string;
  outputIndex: number;
  refs: ReferenceUpload[];
}

export interface CreateRequest {
  model: string;
  taskName?: string;
  parentBatchId?: string;
  responseMime: 'image/png' | 'image/jpeg' | 'image/webp';
  metadata?: Record<string, string>;
  tasks: ExpandedTask[];
}

const MIMES = ['image/png', 'image/jpeg', 'image/webp'] as const;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const invalid = (message: string) => new BatchError(400, 'BATCH_IMAGE_INVALID_ITEMS', message);
const badReference = (message: string) => new BatchError(400, 'BATCH_IMAGE_INVALID_REFERENCE_IMAGE', message);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Model admission, in the order a gateway checks it. */
function checkModel(config: SandboxConfig, model: unknown): string {
  if (typeof model !== 'string' || model.trim() === '') {
    throw new BatchError(400, 'BATCH_IMAGE_INVALID_MODEL', 'model is required');
  }
  const entry = findModel(config, model);
  if (!entry) {
    throw new BatchError(400, 'BATCH_IMAGE_INVALID_MODEL', `model "${model}" is not a batch image model`);
  }
  if (entry.batchPrice === undefined) {
    throw new BatchError(
      400,
      'BATCH_IMAGE_SETTLEMENT_PRICING_MISSING',
      `model "${model}" has no batch price configured`,
    );
  }
  if (!entry.batchAccount) {
    throw new BatchError(
      502,
      'BATCH_IMAGE_NO_ACCOUNT_AVAILABLE',
      `no batch execution account is available for "${model}"`,
    );
  }
  return model;
}

function decodeReference(raw: unknown, where: string, config: SandboxConfig): ReferenceUpload {
  if (!isRecord(raw)) throw badReference(`${where} must be an object`);
  if (raw.file_uri !== undefined || raw.uri !== undefined) {
    throw badReference(`${where}: storage references (file_uri) are not enabled on this gateway`);
  }
  if (typeof raw.mime_type !== 'string' || !(MIMES as readonly string[]).includes(raw.mime_type)) {
    throw badReference(`${where}.mime_type must be one of ${MIMES.join(', ')}`);
  }
  if (typeof raw.data !== 'string' || raw.data.length === 0) throw badReference(`${where}.data is required`);
  if (raw.data.startsWith('data:'))
    throw badReference(`${where}.data must be raw base64 without a data: prefix`);
  const compact = raw.data.replace(/\s+/g, '');
  if (compact.length % 4 === 1 || !BASE64.test(compact))
    throw badReference(`${where}.data is not valid base64`);
  if ((compact.length * 3) / 4 > config.limits.maxRefImageBytes + 4) {
    throw badReference(`${where} is larger than ${config.limits.maxRefImageBytes} bytes`);
  }
  const data = Buffer.from(compact, 'base64');
  if (data.length > config.limits.maxRefImageBytes) {
    throw badReference(`${where} is larger than ${config.limits.maxRefImageBytes} bytes`);
  }
  const actual = sniffImage(data);
  if (!actual) throw badReference(`${where} is not a PNG, JPEG or WebP image`);
  if (actual !== raw.mime_type) throw badReference(`${where} says ${raw.mime_type} but holds ${actual}`);
  return { mime: actual, data };
}

/** Validates a create body and expands its items, answering the spec's codes for each rule. */
export function parseCreateRequest(config: SandboxConfig, body: unknown): CreateRequest {
  if (!isRecord(body))
    throw new BatchError(400, 'BATCH_IMAGE_INVALID_JSON', 'the body must be a JSON object');
  const model = checkModel(config, body.model);
  const limits = config.limits;

  if (body.image_size !== undefined && body.image_size !== '1K') {
    throw invalid(`image_size "${String(body.image_size)}" is not supported; only 1K is accepted`);
  }
  if (body.aspect_ratio !== undefined && !COMMON_RATIOS.includes(String(body.aspect_ratio))) {
    throw invalid(`aspect_ratio "${String(body.aspect_ratio)}" is not supported; omit it`);
  }
  const responseMime = body.response_mime_type ?? 'image/png';
  if (typeof responseMime !== 'string' || !(MIMES as readonly string[]).includes(responseMime)) {
    throw invalid(`response_mime_type must be one of ${MIMES.join(', ')}`);
  }
  if (body.task_name !== undefined && typeof body.task_name !== 'string')
    throw invalid('task_name must be a string');
  if (body.parent_batch_id !== undefined && typeof body.parent_batch_id !== 'string') {
    throw invalid('parent_batch_id must be a string');
  }
  let metadata: Record<string, string> | undefined;
  if (body.metadata !== undefined && body.metadata !== null) {
    if (!isRecord(body.metadata)) throw invalid('metadata must be an object of strings');
    const entries = Object.entries(body.metadata);
    if (entries.length > limits.maxMetadataKeys)
      throw invalid(`metadata has more than ${limits.maxMetadataKeys} keys`);
    if (entries.some(([, v]) => typeof v !== 'string')) throw invalid('metadata values must be strings');
    metadata = body.metadata as Record<string, string>;
  }

  const items = body.items;
  if (!Array.isArray(items) || items.length === 0) throw invalid('items must be a non-empty array');
  if (items.length > limits.maxItems) throw invalid(`a batch holds at most ${limits.maxItems} items`);

  const refLimit = referenceLimitFor(model);
  const tasks: ExpandedTask[] = [];
  const seen = new Set<string>();
  let expanded = 0;
  let refCount = 0;
  let refBytes = 0;

  items.forEach((raw, index) => {
    const where = `items[${index}]`;
    if (!isRecord(raw)) throw invalid(`${where} must be an object`);
    if (typeof raw.prompt !== 'string' || raw.prompt.trim() === '')
      throw invalid(`${where}.prompt is required`);
    if (Buffer.byteLength(raw.prompt, 'utf8') > limits.maxPromptBytes) {
      throw new BatchError(
        400,
        'BATCH_IMAGE_PROMPT_TOO_LONG',
        `${where}.prompt is over ${limits.maxPromptBytes} bytes of UTF-8`,
      );
    }
    const outputCount = raw.output_count ?? 1;
    if (
      !Number.isInteger(outputCount) ||
      (outputCount as number) < 1 ||
      (outputCount as number) > limits.maxOutputCount
    ) {
      throw invalid(`${where}.output_count must be a whole number from 1 to ${limits.maxOutputCount}`);
    }
    if (raw.custom_id !== undefined && (typeof raw.custom_id !== 'string' || raw.custom_id.trim() === '')) {
      throw invalid(`${where}.custom_id must be a non-empty string`);
    }
    const customId = (raw.custom_id as string | undefined) ?? `item_${String(index + 1).padStart(4, '0')}`;
    if (seen.has(customId)) {
      throw new BatchError(
        400,
        'BATCH_IMAGE_DUPLICATE_CUSTOM_ID',
        `custom_id "${customId}" appears more than once`,
      );
    }
    seen.add(customId);

    const rawRefs = raw.reference_images ?? [];
    if (!Array.isArray(rawRefs)) throw badReference(`${where}.reference_images must be an array`);
    if (rawRefs.length > refLimit) {
      throw new BatchError(
        400,
        'BATCH_IMAGE_TOO_MANY_REFERENCE_IMAGES',
        `${where} has ${rawRefs.length} reference images; ${model} takes at most ${refLimit}`,
      );
    }
    const refs = rawRefs.map((r, i) => decodeReference(r, `${where}.reference_images[${i}]`, config));
    const count = outputCount as number;
    expanded += count;
    refCount += refs.length * count;
    refBytes += refs.reduce((sum, r) => sum + r.data.length, 0) * count;
    for (let n = 0; n < count; n++) {
      const id = count > 1 ? `${customId}_${String(n + 1).padStart(2, '0')}` : customId;
      tasks.push({ customId: id, prompt: raw.prompt, outputIndex: n, refs });
    }
  });

  // Expanded ids may collide with ids given explicitly ("a" x2 gives "a_01", which another item may name).
  const expandedIds = new Set<string>();
  for (const task of tasks) {
    if (expandedIds.has(task.customId)) {
      throw new BatchError(
        400,
        'BATCH_IMAGE_DUPLICATE_CUSTOM_ID',
        `custom_id "${task.customId}" appears more than once after expansion`,
      );
    }
    expandedIds.add(task.customId);
  }
  if (expanded > limits.maxOutputImages) {
    throw new BatchError(
      400,
      'BATCH_IMAGE_TOO_MANY_OUTPUT_IMAGES',
      `the batch expands to ${expanded} images; the limit is ${limits.maxOutputImages}`,
    );
  }
  if (refCount > limits.maxRefImagesPerJob) {
    throw new BatchError(
      400,
      'BATCH_IMAGE_TOO_MANY_REFERENCE_IMAGES',
      `the batch uses ${refCount} reference images after expansion; the limit is ${limits.maxRefImagesPerJob}`,
    );
  }
  if (refBytes > limits.maxRefBytesPerJob) {
    throw new BatchError(
      400,
      'BATCH_IMAGE_REFERENCE_IMAGES_TOO_LARGE',
      `reference images total ${refBytes} bytes after expansion; the limit is ${limits.maxRefBytesPerJob}`,
    );
  }

  return {
    model,
    taskName: body.task_name === undefined ? undefined : body.task_name.slice(0, limits.maxTaskNameChars),
    parentBatchId: body.parent_batch_id as string | undefined,
    responseMime: responseMime as CreateRequest['responseMime'],
    metadata,
    tasks,
  };
}
