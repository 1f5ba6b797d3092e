// One culling session for the marks kill test, as its own process: opens the library at --root as
// the person --person, sets --marks marks one after another (an image each, in the library's
// oldest-first order, round and round), and prints `marked <n>` once each is acknowledged (written
// synchronously, so it is out before the next rename). Under kill-at-rename.mjs, renames are
// counted from the first mark on; at the end it prints `renames <n>`.
import { writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { LibraryCatalog } from '../../services/library/catalog/library-catalog';

const { values } = parseArgs({
  options: { root: { type: 'string' }, person: { type: 'string' }, marks: { type: 'string' } },
});
const person = { id: values.person!, name: 'Runner' };
const catalog = new LibraryCatalog(
  () => values.root!,
  undefined,
  () => person,
);
await catalog.sync();
const ids = await catalog.ids({ sort: 'oldest' });
const counted = globalThis as { countRenames?: boolean; renameCount?: number };
counted.countRenames = true;
for (let n = 0; n < Number(values.marks); n++) {
  const { mark, stars } = markNumber(n);
  await catalog.mark([ids[n % ids.length]!], { mark, stars });
  writeSync(1, `marked ${n}\n`);
}
writeSync(1, `renames ${counted.renameCount ?? 0}\n`);
catalog.close();

/** The n-th mark of the session: the test knows them all without being told. */
function markNumber(n: number): { mark: 'picked' | 'rejected'; stars: number } {
  return { mark: n % 2 ? 'picked' : 'rejected', stars: n % 6 };
}
