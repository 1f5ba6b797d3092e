import { BatchError } from './batch-error';

/** The paging of a list (`limit`, `cursor`) and its time window (`from`, `to`), read as gateways read them. */
/** Parses `from`/`to` as gateways do: Unix seconds, RFC 3339 or YYYY-MM-DD; garbage is ignored. */
export function parseTime(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const ms = Date.parse(`${value}T00:00:00Z`);
    return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

export function pageLimit(raw: string | null, fallback: number, max: number): number {
  if (raw === null) return fallback;
  const n = Number(raw);
  // Deployed gateways reset an out-of-range limit to the default rather than clamping it.
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
}

export function pageOffset(raw: string | null): number {
  if (raw === null || raw === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new BatchError(400, 'BATCH_IMAGE_INVALID_CURSOR', `cursor "${raw}" is not an offset`);
  return n;
}
