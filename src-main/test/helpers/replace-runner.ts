// One session of the studio for the replacement kill test, as its own process:
//   setup    submit a batch, wait until it is in the library, pick its first image, exit
//   replace  "Download now" on that batch (replacing its folder), wait until done, exit
//   session  a short working session: "Download now" on that batch, a second mark, then a new batch
//            (named after --tag) submitted and waited for until it is in the library, exit
//   check    start (start-up repairs what a kill left), wait until nothing is sent or downloads,
//            print the batches the Library shows, exit
// Under kill-at-rename.mjs, renames are counted from the moment `replace` or `session` starts work.
// Each step that finished prints a line (written synchronously, so it is out before the next
// rename), so the test knows which outcomes the user was already shown when the kill came.
import { writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { servicesOnDisk, useGatewayUnderTest } from './services-on-disk';
import { promptsDraft } from './prompts-draft';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    gateway: { type: 'string' },
    mode: { type: 'string' },
    tag: { type: 'string' },
  },
});
const dataDir = values.data!;
const services = await servicesOnDisk(dataDir, 'replace-runner', { version: 'runner', gatewaySpeed: 500 });
const profile = useGatewayUnderTest(services, values.gateway!);

const say = (line: string) => writeSync(1, `${line}\n`);
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 20));
}
const settled = () =>
  services.batches.list().every((b) => !['queued', 'downloading', 'verifying'].includes(b.download.state));
/** Nothing being sent, every batch finished on the server, and each completed one in the library or given up on. */
const quiet = () =>
  settled() &&
  services.sends.submissionsList().every((s) => s.state === 'failed') &&
  services.batches
    .list()
    .every(
      (b) =>
        b.goneOnServer ||
        (b.terminal &&
          (b.status !== 'completed' || ['done', 'failed', 'unavailable'].includes(b.download.state))),
    );

const draftOf = (id: string, name: string) =>
  promptsDraft(
    id,
    name,
    [1, 2, 3].map((n) => `${name} item ${n}`),
    'r-',
  );
const countRenames = () => ((globalThis as { countRenames?: boolean }).countRenames = true);
const renameCount = () => (globalThis as { renameCount?: number }).renameCount ?? 0;

if (values.mode === 'setup') {
  const draft = draftOf('replace-draft', 'Replace me');
  const result = await services.dispatch('batches.submit', { draft });
  if (!result.ok) throw new Error(result.error.message);
  await until(() => services.batches.list()[0]?.download.state === 'done');
  const query = await services.dispatch('library.query', {});
  if (!query.ok) throw new Error(query.error.message);
  const first = (query.value as { items: { id: string }[] }).items[0]!;
  const marked = await services.dispatch('library.mark', { ids: [first.id], mark: 'picked', stars: 4 });
  if (!marked.ok) throw new Error(marked.error.message);
  say('set up');
} else if (values.mode === 'replace') {
  await until(settled);
  const id = services.batches.list()[0]!.id;
  countRenames();
  const pressed = await services.dispatch('batches.download', { id });
  if (!pressed.ok) throw new Error(pressed.error.message);
  await until(
    () =>
      services.batches.list()[0]?.download.state === 'done' &&
      !services.batches.downloader.isRunning(profile.id, id),
  );
  say(`replaced after ${renameCount()} renames`);
} else if (values.mode === 'session') {
  await until(settled);
  const first = services.batches.list()[0]!;
  countRenames();
  const pressed = await services.dispatch('batches.download', { id: first.id });
  if (!pressed.ok) throw new Error(pressed.error.message);
  await until(
    () =>
      services.batches.list().find((b) => b.id === first.id)?.download.state === 'done' &&
      !services.batches.downloader.isRunning(profile.id, first.id),
  );
  say('replaced');
  const query = await services.dispatch('library.query', { batchId: first.id });
  if (!query.ok) throw new Error(query.error.message);
  const second = (query.value as { items: { id: string }[] }).items[1]!;
  const marked = await services.dispatch('library.mark', { ids: [second.id], mark: 'rejected', stars: 1 });
  if (!marked.ok) throw new Error(marked.error.message);
  say('marked');
  const draft = draftOf(`session-${values.tag}`, `Session ${values.tag}`);
  const sent = await services.dispatch('batches.submit', { draft });
  if (!sent.ok) throw new Error(sent.error.message);
  say('submitted');
  await until(() => services.batches.list().length === 2 && quiet());
  say(`session done after ${renameCount()} renames`);
} else {
  await until(quiet);
  // The batches the Library shows: a staging folder left by the kill must never be one of them.
  const query = await services.dispatch('library.query', { limit: 500 });
  if (!query.ok) throw new Error(query.error.message);
  const shown = new Set((query.value as { items: { batchId: string }[] }).items.map((i) => i.batchId));
  say(`shown ${[...shown].sort().join(',')}`);
  say('checked');
}
await services.close();
process.exit(0);
