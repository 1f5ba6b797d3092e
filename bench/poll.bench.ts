// Poll: how many GETs the poller sends for a batch that stays running for 30 simulated minutes,
// beside how many the spec's schedule asks for. Judged: equal.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../sandbox/gateway';
import { BatchPoller, type Clock } from '../src-main/services/batches/batch-poller';
import { BatchStore } from '../src-main/services/batches/batch-store';
import { pollDelayMs, seededRandom } from '../src-main/services/batches/poll-schedule';
import { BatchClient } from '../src-main/services/gateway/batch-client';

const SIMULATED_MS = 30 * 60_000;
const sandbox = await createSandbox({
  timeScale: 1,
  config: {
    timing: { queuedS: 0, runningS: 10 * 3600, processingS: 1, settlingS: 1, cancelDelayS: 1, retentionS: 1 },
  },
});
const client = new BatchClient({ baseUrl: sandbox.url, key: 'sk-sandbox-alice' });
const created = await client.create(
  {
    model: 'imgvendor-3.1-flash-image',
    task_name: 'poll bench',
    items: [{ custom_id: 'a', prompt: 'x', output_count: 1 }],
  },
  'poll-bench',
);

let gets = 0;
const counting = new Proxy(client, {
  get(target, prop, receiver) {
    if (prop === 'get') return (id: string) => (gets++, target.get(id));
    return Reflect.get(target, prop, receiver);
  },
});

/** Simulated time: timers fire in order, instantly. */
const start = Date.now();
let now = start;
const timers: { at: number; fn: () => void; id: number }[] = [];
let nextId = 1;
const clock: Clock = {
  now: () => now,
  setTimeout: (fn, ms) => {
    const id = nextId++;
    timers.push({ at: now + ms, fn, id });
    return id;
  },
  clearTimeout: (id) => {
    const i = timers.findIndex((t) => t.id === id);
    if (i >= 0) timers.splice(i, 1);
  },
};

const store = new BatchStore(mkdtempSync(join(tmpdir(), 'bench-poll-')));
const batch = store.put({
  id: created.id,
  profileId: 'bench',
  remote: created,
  origin: 'studio',
  parentBatchId: null,
  rootBatchId: created.id,
  firstSeenMs: start,
  lastPolledMs: null,
  pollErrors: 0,
  cancelRequested: false,
  goneOnServer: false,
  hidden: false,
  download: { state: 'none', attempts: 0 },
});
const poller = new BatchPoller({
  store,
  clientFor: () => counting,
  profiles: () => ['bench'],
  onChange: () => undefined,
  clock,
  random: seededRandom(2026),
});
poller.start();
while (timers.length) {
  timers.sort((a, b) => a.at - b.at);
  const timer = timers.shift()!;
  if (timer.at - start > SIMULATED_MS) break;
  now = timer.at;
  timer.fn();
  await poller.settled();
  if (
    store.get('bench', batch.id)!.remote.status !== 'running' &&
    store.get('bench', batch.id)!.remote.status !== 'queued'
  )
    throw new Error('the batch left running');
}
poller.stop();

// The schedule alone, replayed with the same random sequence from the same creation time.
const random = seededRandom(2026);
const createdMs = created.created_at * 1000;
let scheduleGets = 0;
for (
  let t = start + pollDelayMs(Math.max(0, start - createdMs), random);
  t - start <= SIMULATED_MS;
  t += pollDelayMs(t - createdMs, random)
) {
  scheduleGets++;
}
await sandbox.close();

console.log(
  `simulated ${SIMULATED_MS / 60_000} minutes of a running batch; poller sent ${gets} GETs; the schedule asks for ${scheduleGets}`,
);
console.log(
  JSON.stringify({
    bench: 'poll',
    gets,
    schedule_gets: scheduleGets,
    target: 'gets == schedule_gets',
    pass: gets === scheduleGets,
  }),
);
