// The polling advice of the batch API, written out from the spec alone, so the poll benchmark
// judges the studio's poller against the spec and not against the studio's own schedule code.
// batch-image-api.md, Events: "every 10 to 15 seconds for the first 2 minutes, then every 30
// seconds, increasing gradually to every 60 seconds for long tasks; not every second", and the
// caller stops at `completed`, `failed`, `cancelled` or `output_deleted`. gateway-notes.md adds
// nothing but "follow the schedule in batch-image-api.md".

/** The statuses after which the spec says to stop polling. */
export const SPEC_TERMINAL = new Set(['completed', 'failed', 'cancelled', 'output_deleted']);

const FIRST_PHASE_MS = 2 * 60_000;
/**
 * The spec names no jitter for the 30 to 60 s phase; clients spread their polls so that many
 * batches do not poll in lockstep. We allow 10 % either side of the spec's figures for that, and
 * none in the first two minutes, whose 10 to 15 s is already a band.
 */
export const JITTER_ALLOWANCE = 0.1;

export interface GapBand {
  minMs: number;
  maxMs: number;
  label: string;
}

/** The gap the spec allows before the next poll of a batch polled at `ageMs` after its creation. */
export function specGapBand(ageMs: number): GapBand {
  if (ageMs < FIRST_PHASE_MS) return { minMs: 10_000, maxMs: 15_000, label: '10-15 s' };
  return {
    minMs: 30_000 * (1 - JITTER_ALLOWANCE),
    maxMs: 60_000 * (1 + JITTER_ALLOWANCE),
    label: `${30 * (1 - JITTER_ALLOWANCE)}-${60 * (1 + JITTER_ALLOWANCE)} s`,
  };
}

/** One batch's life inside the measured span, in simulated ms. */
export interface BatchLife {
  createdMs: number;
  /** When the studio starts watching it: its creation, or the studio's start for one found running
   * (its first poll is then one allowed gap later). */
  watchedFromMs: number;
  /** When the gateway made it terminal; Infinity when it is still going at the end of the span. */
  terminalMs: number;
  spanEndMs: number;
}

/**
 * Walks the polls of one batch with every gap at `pick` of its band, counting those inside the span;
 * the poll that first sees the batch terminal counts, none after it. Since the bands never shrink
 * with age, the shortest gaps give the most polls the spec allows and the longest gaps the fewest.
 */
function walk(life: BatchLife, pick: 'minMs' | 'maxMs'): number {
  let t = life.watchedFromMs + specGapBand(life.watchedFromMs - life.createdMs)[pick];
  let polls = 0;
  while (t <= life.spanEndMs) {
    polls++;
    if (t >= life.terminalMs) break;
    t += specGapBand(t - life.createdMs)[pick];
  }
  return polls;
}

/** The fewest and the most GETs the spec allows for one batch within the span. */
export function specPollWindow(life: BatchLife): { min: number; max: number } {
  return { min: walk(life, 'maxMs'), max: walk(life, 'minMs') };
}

export interface GapFinding {
  ageMs: number;
  gapMs: number;
  band: GapBand;
  ok: boolean;
}

/**
 * Every gap of one batch's polls against the spec's band: from being watched to the first poll,
 * between polls, and (while it is still running) from the last poll to the end of the span, which
 * may be no longer than the band allows.
 */
export function judgeGaps(life: BatchLife, pollTimesMs: readonly number[]): GapFinding[] {
  const findings: GapFinding[] = [];
  let previous = life.watchedFromMs;
  for (const t of pollTimesMs) {
    const band = specGapBand(previous - life.createdMs);
    const gapMs = t - previous;
    findings.push({
      ageMs: previous - life.createdMs,
      gapMs,
      band,
      ok: gapMs >= band.minMs && gapMs <= band.maxMs,
    });
    previous = t;
  }
  const last = pollTimesMs.at(-1);
  if (life.terminalMs > (last ?? -Infinity)) {
    // Still running when the span ends (or ended after its last poll): the wait so far is bounded.
    const band = specGapBand(previous - life.createdMs);
    const gapMs = life.spanEndMs - previous;
    if (gapMs > band.maxMs) findings.push({ ageMs: previous - life.createdMs, gapMs, band, ok: false });
  }
  return findings;
}
