import { createHash } from 'node:crypto';

/** Sorts object keys so that the same body hashes the same whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The create body's hash, the same for the same body in any key order: what an idempotency key is checked against. */
export function hashOfBody(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex');
}
