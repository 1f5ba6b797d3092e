// The studio's batch services as their own process, for the kill test: it is killed at random moments and
// started again on the same data folder, against a gateway that outlives it.
import { parseArgs } from 'node:util';
import type { Draft } from '../../../src-shared/draft';
import { servicesOnDisk, useGatewayUnderTest } from './services-on-disk';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    gateway: { type: 'string' },
    drafts: { type: 'string', default: '6' },
  },
});
const dataDir = values.data!;
const services = await servicesOnDisk(dataDir, 'engine-runner', { version: 'runner', gatewaySpeed: 500 });

useGatewayUnderTest(services, values.gateway!);

services.events.subscribe((event, payload: any) => {
  if (event === 'download.progress' && payload.phase === 'downloading')
    process.stdout.write(`downloading ${payload.batchId}\n`);
});

// Like a designer who presses Submit, one draft after another, for each draft the studio has no
// record of sending: each press lands twice at once, as a double click or a second window on a copy
// of the draft would, and the send guard lets one through.
const sent = new Set(services.batches.submissions.list().map((s) => s.draft.id.replace(/-copy$/, '')));
const count = Number(values.drafts);
for (let i = 0; i < count; i++) {
  const id = `kill-draft-${i}`;
  if (sent.has(id)) continue;
  const draft: Draft = {
    id,
    name: `Kill test ${i}`,
    model: 'imgvendor-3.1-flash-image',
    items: Array.from({ length: 8 }, (_, n) => ({
      customId: `k${i}-${n}`,
      prompt: `kill ${i} item ${n}`,
      outputCount: 1,
      referenceIds: [],
    })),
    sharedReferenceIds: [],
    references: [],
    responseMime: 'image/png',
  };
  process.stdout.write(`submitting ${id}\n`);
  const results = await Promise.all([
    services.dispatch('batches.submit', { draft }),
    services.dispatch('batches.submit', { draft: { ...draft, id: `${id}-copy` } }),
  ]);
  for (const result of results) if (!result.ok) process.stdout.write(`submit refused ${result.error.code}\n`);
  await new Promise((r) => setTimeout(r, 150));
}

// Done when every draft's batch is in the library.
setInterval(() => {
  const batches = services.batches.list();
  const done = batches.filter((b) => b.download.state === 'done').length;
  process.stdout.write(`progress ${done}/${count}\n`);
  if (done === count) process.stdout.write('all downloaded\n');
}, 100);
