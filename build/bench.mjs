#!/usr/bin/env node
// `npm run bench [-- name]`: runs bench/<name>.bench.ts (or every one), each in its own process.
// Each prints its figures and, as its last line, one JSON object with the comparison it is judged by.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const available = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace('.bench.ts', ''))
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length) {
  console.error(`unknown benchmark: ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}
let failed = false;
for (const name of wanted.length ? wanted : available) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', `${name}.bench.ts`)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  process.stdout.write(run.stdout);
  const last = run.stdout.trim().split('\n').pop() ?? '';
  try {
    if (JSON.parse(last).pass === false) failed = true;
  } catch {
    failed = true;
  }
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
