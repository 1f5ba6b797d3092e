import { afterAll, expect } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../gateway';

export const ALICE = 'sk-sandbox-alice';
export const BOB = 'sk-sandbox-bob';
export const FLASH = 'imgvendor-3.1-flash-image';
export const PRO = 'imgvendor-3-pro-image';

/**
 * Starts a sandbox for the calling test file and closes it when the file ends. Items fail only
 * when a test asks (`[fail]` in a prompt, or an itemFailureRate), so outcomes are known.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await createSandbox({
    timeScale: 1000,
    ...options,
    config: { itemFailureRate: 0, ...options.config },
  });
  afterAll(() => sandbox.close());
  return sandbox;
}

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A plain HTTP client: the tests check the wire, not a client library's view of it. */
export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string>; raw?: string | Buffer } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Buffer | undefined = options.raw;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export function items(n: number, prefix = 'row'): { custom_id: string; prompt: string }[] {
  return Array.from({ length: n }, (_, i) => ({
    custom_id: `${prefix}${i + 1}`,
    prompt: `${prefix} prompt ${i + 1}`,
  }));
}

export async function createBatch(
  sandbox: Sandbox,
  body: Record<string, unknown>,
  key = ALICE,
  headers: Record<string, string> = {},
): Promise<Answer<any>> {
  return call(sandbox.url, 'POST', '/v1/images/batches', {
    key,
    body: { model: FLASH, task_name: 'test batch', ...body },
    headers,
  });
}

/** Polls until the batch reaches one of the states, returning every state seen on the way. */
export async function waitForStatus(
  sandbox: Sandbox,
  id: string,
  states: string[],
  key = ALICE,
  timeoutMs = 30_000,
): Promise<{ batch: any; seen: string[] }> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await call(sandbox.url, 'GET', `/v1/images/batches/${id}`, { key });
    if (seen[seen.length - 1] !== body.status) seen.push(body.status);
    if (states.includes(body.status)) return { batch: body, seen };
    if (Date.now() > deadline) throw new Error(`batch ${id} stayed ${body.status}; saw ${seen.join(' -> ')}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A real PNG of the given size, to use as a reference or input image. */
export async function pngOf(width = 64, height = 64, color = '#3366ff'): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/** An answer of the batch API's error table: its status and code, with a type, a message and a request id. */
export function expectError(
  answer: { status: number; body: any; headers: Headers },
  status: number,
  code: string,
) {
  expect({ status: answer.status, code: answer.body?.error?.code }).toEqual({ status, code });
  expect(answer.body.error.type).toEqual(expect.any(String));
  expect(answer.body.error.message).toEqual(expect.any(String));
  expect(answer.headers.get('x-request-id')).toMatch(/\S+/);
}
