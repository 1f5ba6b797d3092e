// "What worked" at 100,000 images under one filter (issue 38), measured whole as the window sees it:
// the `library.whatWorked` call through the studio's dispatcher (its input and output checked) and
// its answer made into JSON and read back (what crosses to the renderer), against SQLite's own
// `select count(*)` over the same filtered rows, measured in the same run. The catalog is filled
// straight through the indexing's own writer (catalog-folder-rows.ts) with 100 folders of 1,000
// template images each, a tenth of them marked by two people.
// BENCH_WHAT_WORKED_DISTINCT=1: every image its own combination of values (a fourth variable with a
// value per image, as distinct prompts split into parts), the case that used to take seconds.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FolderImage } from '../src-main/services/library/folders/batch-folder-record';
import { openCatalog, scalar } from '../src-main/services/library/catalog/catalog-db';
import { writeFolder } from '../src-main/services/library/catalog/catalog-folder-rows';
import { FROM, where } from '../src-main/services/library/catalog/catalog-list-sql';
import { whatWorked } from '../src-main/services/library/catalog/catalog-what-worked';
import { createDispatcher, type StudioHandlers } from '../src-main/services/dispatch/studio-dispatcher';
import { fillTemplate } from '../src-shared/prompt-template';
import { WHAT_WORKED_MODEL, whatWorkedQuerySchema, type WhatWorkedQuery } from '../src-shared/what-worked';
import { median } from './studio-session';

const TARGET_MS = 300;
const FOLDERS = 100;
const PER_FOLDER = 1000;
const TEMPLATE =
  process.env.BENCH_WHAT_WORKED_DISTINCT === '1'
    ? 'A {subject} on {surface}, {light}, take {take}'
    : 'A {subject} on {surface}, {light}';
const LISTS = {
  subject: ['ceramic mug', '青花瓷杯', 'glazed vase', 'brass lamp', 'wool blanket', 'walnut tray', '木桌'],
  surface: ['linen cloth', 'slate', 'marble', '亚麻布', 'oak shelf'],
  light: ['soft window light', '柔和的晨光', 'studio light', 'overcast daylight'],
};
const MODELS = ['imgvendor-3.1-flash-image', 'imgvendor-3-pro-image'];

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// BENCH_WHAT_WORKED_KEEP=<folder>: the catalog is kept there and reused by the next run.
const kept = process.env.BENCH_WHAT_WORKED_KEEP;
const dir = kept ?? mkdtempSync(join(tmpdir(), 'what-worked-bench-'));
const { db } = openCatalog(join(dir, 'catalog.db'));
const filled = scalar(db, 'select count(*) from images') === FOLDERS * PER_FOLDER;
const random = mulberry32(38);
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
const t0 = process.hrtime.bigint();
for (let f = 0; f < (filled ? 0 : FOLDERS); f++) {
  const model = MODELS[f % 2]!;
  const images: FolderImage[] = [];
  for (let i = 0; i < PER_FOLDER; i++) {
    const values: Record<string, string> = {
      subject: pick(LISTS.subject),
      surface: pick(LISTS.surface),
      light: pick(LISTS.light),
    };
    // BENCH_WHAT_WORKED_DISTINCT=1: every image its own combination (parts of distinct prompts).
    if (process.env.BENCH_WHAT_WORKED_DISTINCT === '1') values.take = `${f}-${i}`;
    const r = random();
    const mark = r < 0.06 ? 'picked' : r < 0.1 ? 'rejected' : null;
    const team: FolderImage['team'] = mark ? [{ person: 'ana', mark, stars: r < 0.03 ? 4 : 0 }] : [];
    if (mark && random() < 0.5)
      team.push({ person: 'bo', mark: random() < 0.5 ? 'picked' : 'rejected', stars: 0 });
    images.push({
      file: `images/row-${i + 1}.png`,
      ord: i,
      batchId: `imgbatch_${f}`,
      taskName: `Batch ${f}`,
      model,
      customId: `row-${i + 1}`,
      prompt: fillTemplate(TEMPLATE, values),
      rowIndex: i,
      createdAt: 1_790_000_000 + f * 60,
      mime: 'image/png',
      bytes: 1_000_000,
      mark,
      stars: team[0]?.stars ?? 0,
      team,
      sources: [],
      runId: `run-${Math.floor(f / 2)}`,
      hash: null,
      parts: { template: TEMPLATE, values },
    });
  }
  db.transaction(() => writeFolder(db, `2026-11-27 Batch ${f} imgbatch_${f}`, 'sig', images, undefined))();
}
console.log(
  `catalog of ${FOLDERS * PER_FOLDER} images filled in ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1)} s`,
);

const ms = async (work: () => unknown) => {
  const t = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const dispatch = createDispatcher(
  {
    'library.whatWorked': (q: Parameters<typeof whatWorked>[1]) => whatWorked(db, q),
  } as unknown as StudioHandlers,
  (text) => text,
);
/** The call as the window makes it: through the dispatcher, the answer as JSON there and back. */
const call = async (raw: WhatWorkedQuery) => {
  const answer = await dispatch('library.whatWorked', raw);
  if (!answer.ok) throw new Error(answer.error.message);
  return JSON.parse(JSON.stringify(answer.value)) as ReturnType<typeof whatWorked>;
};
const timed = async (runs: number, work: () => unknown) => {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) out.push(await ms(work));
  return median(out);
};
const RUNS = 5;
const cases: [string, WhatWorkedQuery][] = [
  ['by surface, whole library (100k)', { by: ['surface'], marksBy: 'mine' }],
  ['by subject x model, everyone (100k)', { by: ['subject', WHAT_WORKED_MODEL], marksBy: 'everyone' }],
  [
    'by subject x surface x light, agreement (100k)',
    { by: ['subject', 'surface', 'light'], marksBy: 'agreement' },
  ],
  ['by light, search "slate"', { by: ['light'], search: 'slate' }],
  ['by subject, one model (50k)', { by: ['subject'], model: MODELS[0] }],
];
const figures: Record<string, { ms: number; countMs: number; images: number; load: number }> = {};
for (const [name, raw] of cases) {
  const q = whatWorkedQuerySchema.parse(raw);
  const w = where(db, q);
  const result = await call(raw);
  const viewMs = await timed(RUNS, () => call(raw));
  const countMs = await timed(RUNS, () => scalar(db, `select count(*) from ${FROM} ${w.sql}`, ...w.params));
  figures[name] = {
    ms: Number(viewMs.toFixed(1)),
    countMs: Number(countMs.toFixed(1)),
    images: result.images,
    load: Number(loadavg()[0]!.toFixed(2)),
  };
  console.log(
    `  ${name}: ${viewMs.toFixed(1)} ms (count(*) of the same rows ${countMs.toFixed(1)} ms), ${result.images} images, ${result.rows.length} rows, load ${loadavg()[0]!.toFixed(2)}`,
  );
}
db.close();
if (!kept) rmSync(dir, { recursive: true, force: true });
const pass = Object.values(figures).every((f) => f.ms < TARGET_MS);
console.log(
  JSON.stringify({
    bench: 'what-worked',
    distinct: process.env.BENCH_WHAT_WORKED_DISTINCT === '1',
    targets: { view_ms: TARGET_MS },
    figures,
    pass,
  }),
);
