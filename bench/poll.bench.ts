// Poll: the studio's real BatchPoller watching 50 batches on the real sandbox over 45 simulated
// minutes (30 found running at start, aged 20 s to 42 min; 20 submitted during the span; most
// finish midway, three are cancelled from elsewhere). Every GET is counted at the client and at
// the sandbox, and judged against the spec's schedule written out independently in
// spec-poll-schedule.ts. Judged: each batch's GETs inside the spec's window, every gap inside the
// spec's band, no GET after a terminal answer, and both counts agree.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../sandbox/gateway';
import { BatchPoller } from '../src-main/services/batches/batch-poller';
import { BatchStore } from '../src-main/services/batches/batch-store';
import type { TrackedBatch } from '../src-main/services/batches/tracked-batch';
import { BatchClient } from '../src-main/services/gateway/batch-client';
import type { WireBatch } from '../src-main/services/gateway/batch-wire';
import { SimulatedTime } from './simulated-time';
import {
  SPEC_TERMINAL,
  judgeGaps,
  specPollWindow,
  type BatchLife,
  type GapFinding,
} from './spec-poll-schedule';

const MIN = 60_000;
const SPAN_MS = 45 * MIN;
const FOUND = 30;
const SUBMITTED = 20;
const KEY = 'sk-sandbox-alice';
const MODEL = 'imgvendor-3.1-flash-image';

// Whole seconds throughout, so the gateway's created_at (in seconds) is exactly the creation time.
const start = Math.floor(Date.now() / 1000) * 1000;
const time = new SimulatedTime(start);
time.install();
// A batch sits queued for 3 minutes and runs 40: about 43.5 minutes from creation to completed.
const sandbox = await createSandbox({
  timeScale: 1,
  config: {
    itemFailureRate: 0,
    timing: {
      queuedS: 180,
      runningS: 40 * 60,
      processingS: 20,
      settlingS: 10,
      cancelDelayS: 15,
      retentionS: 72 * 3600,
    },
  },
});
const client = new BatchClient({ baseUrl: sandbox.url, key: KEY });
const storeDir = mkdtempSync(join(tmpdir(), 'bench-poll-'));
const store = new BatchStore(storeDir);

const createdMs = new Map<string, number>();
const foundIds = new Set<string>();
let n = 0;
async function create(): Promise<WireBatch> {
  n++;
  const batch = await client.create(
    {
      model: MODEL,
      task_name: `poll bench ${n}`,
      items: [{ custom_id: `item-${n}`, prompt: `Poll bench ${n}: a lighthouse at dusk`, output_count: 1 }],
    },
    `poll-bench-${start}-${n}`,
  );
  createdMs.set(batch.id, time.now());
  return batch;
}

const tracked = (remote: WireBatch, fields: Partial<TrackedBatch>): TrackedBatch =>
  store.put({
    id: remote.id,
    profileId: 'bench',
    remote,
    origin: 'studio',
    parentBatchId: null,
    rootBatchId: remote.id,
    firstSeenMs: time.now(),
    lastPolledMs: null,
    pollErrors: 0,
    cancelRequested: false,
    goneOnServer: false,
    hidden: false,
    download: { state: 'none', attempts: 0 },
    ...fields,
  });

// Batches made before the studio starts, oldest first, then found on the server at start, as the
// engine's list sync finds them: seen and polled now, their schedule counted from their creation.
const ages = Array.from(
  { length: FOUND },
  (_, i) => Math.round((20_000 + (i * (42 * MIN - 20_000)) / (FOUND - 1)) / 1000) * 1000,
);
for (const age of [...ages].sort((a, b) => b - a)) {
  time.jumpTo(start - age);
  foundIds.add((await create()).id);
}
time.jumpTo(start);
for (const id of foundIds) tracked(await client.get(id), { origin: 'server', lastPolledMs: start });

// Counting GETs at the client, with the simulated time and the status each one answered.
const polls = new Map<string, { t: number; status: string }[]>();
const counting = new Proxy(client, {
  get(target, prop, receiver) {
    if (prop !== 'get') return Reflect.get(target, prop, receiver);
    return async (id: string) => {
      const t = time.now();
      const answer = await target.get(id);
      polls.set(id, [...(polls.get(id) ?? []), { t, status: answer.status }]);
      return answer;
    };
  },
});
const poller = new BatchPoller({
  store,
  clientFor: () => counting,
  profiles: () => ['bench'],
  onChange: () => undefined,
  clock: time.clock,
});

// The scene: a submission every 2 minutes from minute 1, as the engine records and schedules one;
// at minute 20, someone cancels three of them from another machine.
let sceneRequests = 0;
const submittedIds: string[] = [];
for (let j = 0; j < SUBMITTED; j++) {
  time.at(start + MIN + j * 2 * MIN, async () => {
    const remote = await create();
    sceneRequests++;
    submittedIds.push(remote.id);
    poller.schedule(tracked(remote, {}));
  });
}
time.at(start + 20 * MIN, async () => {
  for (const id of [submittedIds[1]!, submittedIds[3]!, submittedIds[5]!]) {
    await fetch(`${sandbox.url}/v1/images/batches/${id}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
    });
    sceneRequests++;
  }
});

const sandboxBefore = sandbox.inspect().requests.batch ?? 0;
poller.start();
await time.runUntil(start + SPAN_MS, () => poller.settled());
poller.stop();
const sandboxGets = (sandbox.inspect().requests.batch ?? 0) - sandboxBefore - sceneRequests;

// When each batch turned terminal, by the sandbox's own record (brought up to date by one last read).
const terminalMs = new Map<string, number>();
for (const id of createdMs.keys()) {
  await client.get(id);
  const record = sandbox.store.batches.get(id)!;
  terminalMs.set(id, SPEC_TERMINAL.has(record.status) ? record.phaseStartedMs : Infinity);
}
time.uninstall();
await sandbox.close();
rmSync(storeDir, { recursive: true, force: true });

// Judging every batch against the spec's window and bands.
let gets = 0;
let windowMin = 0;
let windowMax = 0;
let terminalPolls = 0;
let finishedMidway = 0;
const outOfWindow: string[] = [];
const gaps: GapFinding[] = [];
for (const [id, created] of createdMs) {
  const life: BatchLife = {
    createdMs: created,
    watchedFromMs: foundIds.has(id) ? start : created,
    terminalMs: terminalMs.get(id)!,
    spanEndMs: start + SPAN_MS,
  };
  const mine = polls.get(id) ?? [];
  const window = specPollWindow(life);
  gets += mine.length;
  windowMin += window.min;
  windowMax += window.max;
  if (life.terminalMs <= life.spanEndMs) finishedMidway++;
  if (mine.length < window.min || mine.length > window.max)
    outOfWindow.push(
      `${foundIds.has(id) ? `found ${(start - created) / 1000} s old` : `submitted at ${(created - start) / 1000} s`}: ${mine.length} GETs, spec ${window.min}-${window.max}`,
    );
  const firstTerminal = mine.findIndex((p) => SPEC_TERMINAL.has(p.status));
  if (firstTerminal >= 0) terminalPolls += mine.length - firstTerminal - 1;
  gaps.push(
    ...judgeGaps(
      life,
      mine.map((p) => p.t),
    ),
  );
}

const buckets: [string, number, number][] = [
  ['0-2 min', 0, 2 * MIN],
  ['2-10 min', 2 * MIN, 10 * MIN],
  ['10-30 min', 10 * MIN, 30 * MIN],
  ['30+ min', 30 * MIN, Infinity],
];
const s = (ms: number) => (ms / 1000).toFixed(1);
console.log(
  `simulated ${SPAN_MS / MIN} min, ${createdMs.size} batches (${FOUND} found running, ${SUBMITTED} submitted, ${finishedMidway} finished midway)`,
);
console.log('age at poll | gaps | min s | median s | max s | spec band | outside band');
for (const [label, lo, hi] of buckets) {
  const inBucket = gaps.filter((g) => g.ageMs >= lo && g.ageMs < hi).map((g) => g);
  if (!inBucket.length) continue;
  const sorted = inBucket.map((g) => g.gapMs).sort((a, b) => a - b);
  console.log(
    `${label} | ${inBucket.length} | ${s(sorted[0]!)} | ${s(sorted[Math.floor(sorted.length / 2)]!)} | ${s(sorted.at(-1)!)} | ${inBucket[0]!.band.label} | ${inBucket.filter((g) => !g.ok).length}`,
  );
}
console.log(
  `GETs: ${gets} at the client, ${sandboxGets} at the sandbox; the spec allows ${windowMin}-${windowMax}`,
);
for (const line of outOfWindow) console.log(`outside the spec's window: ${line}`);
const gapsOutside = gaps.filter((g) => !g.ok).length;
console.log(
  JSON.stringify({
    bench: 'poll',
    batches: createdMs.size,
    simulated_min: SPAN_MS / MIN,
    gets,
    sandbox_gets: sandboxGets,
    spec_min: windowMin,
    spec_max: windowMax,
    batches_outside_window: outOfWindow.length,
    gaps_outside_band: gapsOutside,
    gets_after_terminal: terminalPolls,
    target: "every batch's GETs within the spec's window, every gap within its band, none after terminal",
    pass: outOfWindow.length === 0 && gapsOutside === 0 && terminalPolls === 0 && gets === sandboxGets,
  }),
);
