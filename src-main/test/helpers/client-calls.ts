import { join } from 'node:path';
import { BatchClient } from '../../services/gateway/batch-client';
import { wireBatchSchema, wireItemSchema } from '../../services/gateway/batch-wire';
import { sniffImageType } from '../../services/storage/file-names';
import { KbClient } from '../../services/kb/kb-client';
import { RealtimeClient } from '../../services/realtime/realtime-client';
import { PNG_1X1 } from './hostile-gateway';
import { FLASH } from './prompts-draft';

// The calls the studio's gateway clients expose, for gateway-answers-fuzz.test.ts: a valid answer of
// each, and what the rest of the studio relies on in what the call gives back.

const batchObject = (id = 'imgbatch_0f3a') => ({
  id,
  object: 'batch',
  task_name: 'Autumn posters',
  status: 'running',
  model: FLASH,
  item_count: 3,
  success_count: 1,
  fail_count: 0,
  estimated_cost: 0.12,
  hold_amount: 0.07,
  actual_cost: null,
  created_at: 1_700_000_000,
  submitted_at: 1_700_000_001,
  settled_at: null,
  parent_batch_id: null,
});
const list = (data: unknown[]) => ({ object: 'list', data, has_more: false });

/** What the rest of the studio relies on in an answer, as the problem it has, or none. */
type Check = (value: any) => string | undefined;
const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const COUNTS_AND_AMOUNTS = ['item_count', 'success_count', 'fail_count', 'estimated_cost', 'hold_amount'];
const batchProblem: Check = (b) => {
  if (!wireBatchSchema.safeParse(b).success) return 'a batch the wire schema refuses';
  for (const field of [...COUNTS_AND_AMOUNTS, 'created_at'])
    if (!finite(b[field])) return `${field} is not a finite number`;
  if (b.actual_cost !== null && !finite(b.actual_cost)) return 'actual_cost is not a finite number';
  // Spending sums these against the budget: none may be below zero.
  for (const field of [...COUNTS_AND_AMOUNTS, 'actual_cost']) if (b[field] < 0) return `${field} below zero`;
  return undefined;
};
const everyOf =
  (check: Check): Check =>
  (values) =>
    Array.isArray(values) ? values.map(check).find(Boolean) : 'not a list';

export interface Call {
  name: string;
  /** The valid answer a damage starts from: JSON, or bytes with their type. */
  valid: { json: unknown } | { bytes: Buffer; type: string };
  run(): Promise<unknown>;
  check: Check;
}

export const realtimeAnswer = (data: string) => ({
  candidates: [
    {
      content: { parts: [{ text: 'Here is the poster.' }, { inlineData: { mimeType: 'image/png', data } }] },
      finishReason: 'STOP',
    },
  ],
  modelVersion: `${FLASH}-001`,
});
const imageProblem: Check = (r) => {
  if (!Buffer.isBuffer(r.image) || !sniffImageType(r.image.subarray(0, 16)))
    return 'an image that is not one';
  if (!['image/png', 'image/jpeg', 'image/webp'].includes(r.mime)) return `mime ${r.mime}`;
  if (typeof r.text !== 'string' || typeof r.requestId !== 'string') return 'text or request id missing';
  return undefined;
};

/** Every call of the studio's gateway clients, each with a valid answer to damage and what it must give. */
export function clientCalls(
  gateway: { url: string },
  keys: { key: string; kbKey: string },
  folder: string,
): Call[] {
  const account = { baseUrl: gateway.url, key: keys.key, knownKeys: () => [keys.kbKey] };
  const batches = new BatchClient(account, 20_000);
  const realtime = new RealtimeClient(account, { sleep: async () => undefined, timeoutMs: () => 20_000 });
  const kb = new KbClient({ baseUrl: gateway.url, key: keys.kbKey, knownKeys: () => [keys.key] });
  return [
    {
      name: 'batch models',
      valid: { json: list([{ id: FLASH, object: 'model' }]) },
      run: () => batches.models(),
      check: everyOf((m) => (typeof m === 'string' ? undefined : 'a model that is not a name')),
    },
    {
      name: 'batch create',
      valid: { json: batchObject() },
      run: () =>
        batches.create(
          {
            model: FLASH,
            task_name: 'Autumn posters',
            items: [{ custom_id: 'a', prompt: 'a poster', output_count: 1 }],
          },
          'submission-fuzz',
        ),
      check: batchProblem,
    },
    {
      name: 'batch get',
      valid: { json: batchObject() },
      run: () => batches.get('imgbatch_0f3a'),
      check: batchProblem,
    },
    {
      name: 'batch list',
      valid: { json: list([batchObject('imgbatch_1'), batchObject('imgbatch_2')]) },
      run: () => batches.listPage({ status: 'running' }, 0),
      check: (p) =>
        typeof p.hasMore === 'boolean' ? everyOf(batchProblem)(p.data) : 'hasMore is not a boolean',
    },
    {
      name: 'batch items',
      valid: {
        json: list([
          {
            custom_id: 'a',
            status: 'succeeded',
            prompt_preview: 'a poster',
            mime_type: 'image/png',
            image_count: 1,
            error: null,
          },
          {
            custom_id: 'b',
            status: 'failed',
            image_count: 0,
            error: { code: 'SAFETY_BLOCKED', message: 'blocked', source: 'provider' },
          },
        ]),
      },
      run: () => batches.items('imgbatch_0f3a'),
      check: everyOf((i) =>
        wireItemSchema.safeParse(i).success && finite(i.image_count)
          ? undefined
          : 'an item the wire schema refuses',
      ),
    },
    {
      name: 'batch cancel',
      valid: { json: { ...batchObject(), status: 'cancelled' } },
      run: () => batches.cancel('imgbatch_0f3a'),
      check: batchProblem,
    },
    {
      name: 'batch delete outputs',
      valid: { json: { ...batchObject(), status: 'output_deleted' } },
      run: () => batches.deleteOutputs('imgbatch_0f3a'),
      check: (b) => (b === undefined ? undefined : batchProblem(b)),
    },
    {
      name: 'batch delete record',
      valid: { bytes: Buffer.alloc(0), type: 'text/plain' },
      run: () => batches.deleteRecord('imgbatch_0f3a'),
      check: (v) => (v === undefined ? undefined : 'a value from a delete'),
    },
    {
      name: 'batch item content',
      valid: { bytes: PNG_1X1, type: 'image/png' },
      run: () =>
        batches.downloadTo(batches.contentPath('imgbatch_0f3a', 'a'), join(folder, 'a.png'), () => undefined),
      check: (r) =>
        finite(r.bytes) && typeof r.requestId === 'string' ? undefined : 'a download without its count',
    },
    {
      name: 'batch ZIP',
      valid: { bytes: Buffer.concat([Buffer.from('PK\x03\x04'), PNG_1X1]), type: 'application/zip' },
      // The reader judges the bytes and a stream cut inside them (zip-stream-fuzz.test.ts); here only the answer is.
      run: async () => {
        const zip = await batches.zipStream('imgbatch_0f3a', 0);
        if (zip)
          await (async () => {
            for await (const chunk of zip.body) void chunk;
          })().catch(() => undefined);
        return zip;
      },
      check: (z) =>
        z === undefined || z.total === undefined || finite(z.total) ? undefined : 'a ZIP of no size',
    },
    {
      name: 'realtime models',
      valid: { json: { models: [{ name: `models/${FLASH}` }] } },
      run: () => realtime.models(),
      check: everyOf((m) => (typeof m === 'string' && m ? undefined : 'a model that is not a name')),
    },
    {
      name: 'realtime generate',
      valid: { json: realtimeAnswer(PNG_1X1.toString('base64')) },
      run: () => realtime.generate({ model: FLASH, prompt: 'a poster', images: [], imageSize: '1K' }),
      check: imageProblem,
    },
    {
      name: 'realtime edit',
      valid: { json: realtimeAnswer(PNG_1X1.toString('base64')) },
      run: () =>
        realtime.generate({
          model: FLASH,
          prompt: 'make it blue',
          images: [{ mime: 'image/png', data: PNG_1X1 }],
          imageSize: '1K',
        }),
      check: imageProblem,
    },
    {
      name: 'kb push',
      valid: { json: { code: 200, statusText: '', message: 'pushed', data: 2 } },
      run: () => kb.pushData({ kbId: 'kb1', mode: 'qa', data: [{ q: 'paper?', a: 'cold press' }] }),
      check: (r) =>
        Number.isSafeInteger(r.inserted) && r.inserted >= 0 && typeof r.message === 'string'
          ? undefined
          : 'a push without its count',
    },
    {
      name: 'kb search',
      valid: {
        json: {
          code: 200,
          statusText: '',
          message: '',
          data: {
            rawSearch: [{ id: '7', q: 'paper?', a: 'cold press' }],
            userSystemPrompt: { obj: 'System', value: 'be brief' },
            quotePrompt: '',
          },
        },
      },
      run: () => kb.search({ appId: 'app1', similarity: 0.8, limit: 5, prompts: ['paper'] }),
      check: (r) =>
        Array.isArray(r.rawSearch) &&
        r.rawSearch.every((h: any) => [h.id, h.q, h.a].every((s) => typeof s === 'string')) &&
        typeof r.userSystemPrompt === 'string' &&
        typeof r.quotePrompt === 'string'
          ? undefined
          : 'search hits the studio cannot show',
    },
  ];
}
