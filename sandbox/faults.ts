/**
 * The fault switch. A spec is a comma list of `kind=rate` (0..1) or `kind=#N` (the next N chances):
 *
 *   429, 500, 502, 503, 504   answer with that status in the API's error envelope
 *   reset                      destroy the connection without an answer
 *   slow                       delay the answer by `slow_ms` (default 3000)
 *   noimage                    realtime: HTTP 200 whose candidate has text but no image
 *   capacity                   realtime: 503 saying every upstream key is cooling down
 *   truncate                   batch download: HTTP 200 with a ZIP cut short
 *   stall                      batch download: at `cut_at` of the ZIP, nothing more for `slow_ms`,
 *                              the connection held open; only when named, never through `all`
 *   badimage                   batch download or item content: HTTP 200 where each image is an HTML
 *                              error page instead (inside a well-formed ZIP, or as the item's body),
 *                              as from a gateway whose storage answers with its error page; only
 *                              when named, never through `all`
 *   lostcreate                 batch create: the batch is created, the answer never arrives
 *   latecreate                 batch create: the batch is created at once, the answer leaves only
 *                              `late_ms` later (default 130000: after a client's 2-minute timeout)
 *   not_ready                  batch create: 503 BATCH_IMAGE_NOT_READY, the runtime is not ready
 *   itemfail                   batch items fail upstream at this rate
 *   submit_failed, queue_failed, hold_failed, no_account, cancel_failed
 *                              batch create (or cancel) answers with that 5xx gateway error
 *   all=R                      every request: with probability R one of the faults that can hit it;
 *                              items fail at rate R too
 *   seed=N                     seed of the fault dice, so a run can be replayed
 *   slow_ms=N, late_ms=N       how long `slow` and `latecreate` hold an answer
 */

/** What a `badimage` fault serves in place of each image: a storage proxy's error page. */
export const BROKEN_IMAGE_BODY = Buffer.from(
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>\n',
);

export const HTTP_FAULTS = ['429', '500', '502', '503', '504', 'reset', 'slow'] as const;
export const ROUTE_FAULTS = [
  'noimage',
  'capacity',
  'truncate',
  'stall',
  'badimage',
  'lostcreate',
  'latecreate',
  'not_ready',
  'submit_failed',
  'queue_failed',
  'hold_failed',
  'no_account',
  'cancel_failed',
] as const;
export type FaultKind = (typeof HTTP_FAULTS)[number] | (typeof ROUTE_FAULTS)[number] | 'itemfail';

const KINDS = new Set<string>([...HTTP_FAULTS, ...ROUTE_FAULTS, 'itemfail']);

interface Chance {
  rate: number;
  /** Remaining forced occurrences for `kind=#N`. */
  remaining?: number;
}

export interface FaultSettings {
  chances: Partial<Record<FaultKind, Chance>>;
  all: number;
  slowMs: number;
  lateMs: number;
  seed: number;
  /** Where a truncated download stops, as a share of its bytes. */
  cutAt: number;
}

export function parseFaultSpec(spec: string | undefined): FaultSettings {
  const settings: FaultSettings = { chances: {}, all: 0, slowMs: 3000, lateMs: 130_000, seed: 1, cutAt: 0.6 };
  if (!spec) return settings;
  for (const raw of spec.split(',')) {
    const part = raw.trim();
    if (!part) continue;
    const [name, value] = part.split('=').map((s) => s.trim());
    if (!name || value === undefined || value === '')
      throw new Error(`fault "${part}" needs a value, as kind=0.1`);
    if (name === 'cut_at') {
      const share = Number(value);
      if (!(share > 0 && share < 1))
        throw new Error(`fault cut_at is a share between 0 and 1, got "${value}"`);
      settings.cutAt = share;
      continue;
    }
    if (name === 'seed' || name === 'slow_ms' || name === 'late_ms') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0)
        throw new Error(`fault ${name} takes a whole number, got "${value}"`);
      if (name === 'seed') settings.seed = n;
      else if (name === 'late_ms') settings.lateMs = n;
      else settings.slowMs = n;
      continue;
    }
    if (name !== 'all' && !KINDS.has(name)) {
      throw new Error(
        `unknown fault kind "${name}"; known: all, ${[...KINDS].join(', ')}, seed, slow_ms, late_ms, cut_at`,
      );
    }
    if (value.startsWith('#')) {
      const count = Number(value.slice(1));
      if (!Number.isInteger(count) || count < 0 || name === 'all')
        throw new Error(`fault "${part}": #N takes a count`);
      settings.chances[name as FaultKind] = { rate: 1, remaining: count };
      continue;
    }
    const rate = Number(value);
    if (!(rate >= 0 && rate <= 1)) throw new Error(`fault "${part}": the rate is between 0 and 1`);
    if (name === 'all') settings.all = rate;
    else settings.chances[name as FaultKind] = { rate };
  }
  return settings;
}

/** mulberry32: small, fast and seedable, so a fault run can be replayed exactly. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultSwitch {
  private settings: FaultSettings;
  private random: () => number;
  /** How many times each fault fired, for tests and the admin endpoint. */
  readonly fired: Partial<Record<FaultKind, number>> = {};

  constructor(spec?: string) {
    this.settings = parseFaultSpec(spec);
    this.random = seededRandom(this.settings.seed);
  }

  set(spec: string | undefined): void {
    this.settings = parseFaultSpec(spec);
    this.random = seededRandom(this.settings.seed);
  }

  get slowMs(): number {
    return this.settings.slowMs;
  }

  get lateMs(): number {
    return this.settings.lateMs;
  }

  get cutAt(): number {
    return this.settings.cutAt;
  }

  describe(): {
    all: number;
    slowMs: number;
    lateMs: number;
    seed: number;
    cutAt: number;
    chances: FaultSettings['chances'];
  } {
    return structuredClone(this.settings);
  }

  /** Whether one specific fault fires now. */
  roll(kind: FaultKind): boolean {
    const chance = this.settings.chances[kind];
    if (chance?.remaining !== undefined) {
      if (chance.remaining <= 0) return false;
      chance.remaining -= 1;
      this.fire(kind);
      return true;
    }
    const rate = chance?.rate ?? 0;
    if (rate <= 0 || this.random() >= rate) return false;
    this.fire(kind);
    return true;
  }

  /**
   * Picks at most one fault for a request among the kinds that can hit it: first the ones named
   * explicitly, then the `all` rate spread evenly over them.
   */
  pick(applicable: readonly FaultKind[]): FaultKind | undefined {
    for (const kind of applicable) if (this.roll(kind)) return kind;
    if (this.settings.all > 0 && this.random() < this.settings.all && applicable.length > 0) {
      const kind = applicable[Math.floor(this.random() * applicable.length)]!;
      return this.fire(kind);
    }
    return undefined;
  }

  itemFailureRate(base: number): number {
    return Math.max(base, this.settings.chances.itemfail?.rate ?? 0, this.settings.all);
  }

  private fire(kind: FaultKind): FaultKind {
    this.fired[kind] = (this.fired[kind] ?? 0) + 1;
    return kind;
  }
}
