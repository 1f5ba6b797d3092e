// `npm run lint:rooms`: the house rules a newcomer relies on to find things, checked on every CI run.
//  1. Imports run one way between the parts (renderer -> shared, services -> shared, ...) and
//     between the rooms of src-main/services (a room imports only rooms below it in ROOM_LAYERS).
//  2. No circle of imports anywhere (type-only imports count: they tie two files together as much).
//  3. No two source files share a base name across src-main, src-renderer, src-shared and sandbox
//     unless they are the same concept (SAME_CONCEPT); a test is named for what it tests.
//  4. Every file under 300 lines in the renderer and 400 elsewhere.
// Written here rather than with dependency-cruiser: the rules are a few dozen lines over TypeScript's
// own import scanner (ts.preProcessFile, already a dependency), and no new package is needed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// `--root DIR` checks another tree (the check's own test gives it small ones).
const rootArg = process.argv.indexOf('--root');
const ROOT = rootArg > 0 ? process.argv[rootArg + 1] : join(dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['src-main', 'src-renderer', 'src-shared', 'src-preload', 'sandbox', 'e2e', 'bench', 'build'];
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
const TEST_CODE = /(^|\/)(test|e2e|bench|build)\/|\.test\.tsx?$/;

/** Which parts each part may import. Test code (test/ folders, e2e, bench, build) may import any part. */
const PART_IMPORTS = {
  'src-shared': ['src-shared'],
  'src-renderer': ['src-renderer', 'src-shared'],
  'src-preload': ['src-preload', 'src-shared'],
  'src-main/services': ['src-main/services', 'src-shared'],
  'src-main/web': ['src-main/web', 'src-main/services', 'src-shared'],
  'src-main/electron': ['src-main/electron', 'src-main/web', 'src-main/services', 'src-shared'],
  // The sandbox must not agree with the studio on a shared mistake.
  sandbox: ['sandbox'],
};

/**
 * The rooms of src-main/services, lowest first. A room may import its own files and rooms of lower
 * layers only, never a room of its own layer or above: so the imports between rooms run one way.
 */
const ROOM_LAYERS = [
  ['log', 'lazy-imports', 'external-links', 'dispatch'],
  ['storage'],
  ['secrets', 'settings'],
  ['gateway'],
  ['zip', 'library/folders', 'profiles', 'people'],
  [
    'connection',
    'library/catalog',
    'library/sharing',
    'library/images',
    'references',
    'drafts',
    'updates',
    'realtime',
  ],
  ['library/changes', 'library/export', 'contact-sheet', 'batches', 'kb', 'reuse'],
  ['api-methods'],
  ['first-services'],
  ['studio-services'],
  ['studio-start'],
];

/**
 * Where each room's tests are (src-main/test/<name>.test.ts), so a service is found from its tests'
 * names and the other way round. Every room of ROOM_LAYERS has an entry, and every test named exists.
 */
const ROOM_TESTS = {
  log: ['studio-log'],
  'lazy-imports': ['kb-token-count', 'contact-sheet', 'table-import'],
  'external-links': ['studio-dispatch'],
  dispatch: ['studio-dispatch', 'web-api-fuzz'],
  storage: ['durability', 'disk-full', 'data-folder-lock'],
  secrets: ['key-secrecy'],
  settings: ['library-dir-setting', 'start-path'],
  gateway: [
    'batch-wire',
    'gateway-variants',
    'gateway-answers-fuzz',
    'harsh-gateway',
    'damaged-answers',
    'retry-policy',
    'streamed-answer',
  ],
  zip: ['zip-stream', 'zip-stream-fuzz', 'zip-stream-download', 'zip-inflate', 'zip-ingest'],
  'library/folders': ['batch-library-folder', 'library-folder-check', 'library-arriving', 'team-files'],
  profiles: ['profile-switch'],
  people: ['team-people'],
  connection: ['studio-dispatch', 'key-secrecy'],
  'library/catalog': [
    'library-catalog',
    'library-index',
    'library-first-build',
    'library-stacks',
    'library-truth',
    'what-worked',
    'what-worked-team',
  ],
  'library/sharing': [
    'shared-library',
    'shared-downloads',
    'team-syncthing',
    'team-interleavings',
    'marks-kills',
  ],
  'library/images': ['image-routes', 'library-index'],
  references: ['image-routes', 'batch-engine'],
  drafts: ['table-import', 'table-import-fuzz'],
  updates: [
    'update-service',
    'update-availability',
    'update-busy-guard',
    'update-menu-check',
    'lazy-updater-engine',
  ],
  realtime: ['realtime-client', 'realtime-jobs', 'realtime-truth'],
  'library/changes': ['change-journal', 'library-live'],
  'library/export': ['library-export'],
  'contact-sheet': ['contact-sheet'],
  batches: [
    'batch-engine',
    'batch-trust',
    'batch-faults',
    'batch-kills',
    'batch-run',
    'batch-costs-events',
    'send-guard',
    'spending',
    'money-rules',
    'money-days',
    'download-durability',
    'poll-schedule',
    'progress-coalescer',
  ],
  kb: ['kb-push', 'kb-truth', 'kb-token-count'],
  reuse: ['image-reuse', 'what-worked'],
  'api-methods': ['studio-dispatch', 'web-api-fuzz'],
  'studio-services': ['services-start'],
  'first-services': ['first-services'],
  'studio-start': ['first-services'],
};

/** Imports across parts that are meant, each with its reason. */
const MEANT = {
  'src-main/services/studio-services.ts -> sandbox/gateway.ts':
    'the studio starts the built-in sandbox gateway for trying it out (the sandbox imports nothing back)',
};

/** Files exempt from the size limit, each with its reason. */
const SIZE_EXEMPT = {
  'src-shared/i18n/en.ts': 'a dictionary, one text a line; kept whole so zh-CN.ts matches it key for key',
  'src-shared/i18n/zh-CN.ts': 'a dictionary, one text a line; kept whole so it matches en.ts key for key',
};

/** Base names that several parts hold for the same concept. */
const SAME_CONCEPT = {
  main: 'the entry point of a process (electron main, renderer)',
  cli: 'the command line of a program (the sandbox, browser mode)',
};

/**
 * The renderer's feature folders: none imports another. What two features use lives in shared/
 * (or app/, shell/ for the frame around them), each feature's own code in its folder.
 */
const RENDERER_FEATURES = ['compose', 'batches', 'library', 'realtime', 'kb', 'settings', 'updates'];
/** Feature imports that are meant, each with its reason. */
const FEATURE_MEANT = {
  'settings -> updates': 'the Settings screen shows the updates feature’s own settings panel',
};

const RENDERER_MAX_LINES = 300;
const OTHER_MAX_LINES = 400;

function walk(dir, out) {
  for (const name of readdirSync(join(ROOT, dir))) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const rel = posix.join(dir, name);
    if (statSync(join(ROOT, rel)).isDirectory()) walk(rel, out);
    else if (SOURCE.test(name) && !/\.d\.m?ts$/.test(name)) out.push(rel);
  }
  return out;
}

function partOf(file) {
  if (file.startsWith('src-main/')) return file.split('/').slice(0, 2).join('/');
  return file.split('/')[0];
}

function roomOf(file) {
  const parts = file.split('/').slice(2);
  if (parts.length === 1) return parts[0].replace(SOURCE, '');
  if (parts[0] === 'library') return `library/${parts[1]}`;
  return parts[0];
}

const layerOf = new Map(ROOM_LAYERS.flatMap((rooms, i) => rooms.map((room) => [room, i])));
const files = FOLDERS.filter((dir) => existsSync(join(ROOT, dir))).flatMap((dir) => walk(dir, []));
const known = new Set(files);
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx'];

function resolveImport(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  for (const ext of EXTENSIONS) if (known.has(base + ext)) return base + ext;
  // A .js specifier written for a .ts file.
  const bare = base.replace(/\.js$/, '');
  for (const ext of ['.ts', '.tsx']) if (known.has(bare + ext)) return bare + ext;
  return null;
}

const problems = [];
const edges = new Map();
for (const file of files) {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const max = file.startsWith('src-renderer/') ? RENDERER_MAX_LINES : OTHER_MAX_LINES;
  if (lines > max && !SIZE_EXEMPT[file])
    problems.push(`${file}: ${lines} lines; files stay under ${max}. Split it by concept.`);

  const targets = ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => resolveImport(file, f.fileName))
    .filter(Boolean);
  edges.set(file, targets);
  if (TEST_CODE.test(file)) continue;
  const part = partOf(file);
  for (const target of targets) {
    if (TEST_CODE.test(target)) {
      problems.push(`${file} imports test code ${target}.`);
      continue;
    }
    const targetPart = partOf(target);
    const allowed = PART_IMPORTS[part];
    if (allowed && !allowed.includes(targetPart) && !MEANT[`${file} -> ${target}`]) {
      problems.push(`${file} imports ${target}: ${part} may import only ${allowed.join(', ')}.`);
    }
    if (part === 'src-renderer' && targetPart === part) {
      const [from, to] = [file.split('/')[1], target.split('/')[1]];
      if (
        from !== to &&
        RENDERER_FEATURES.includes(from) &&
        RENDERER_FEATURES.includes(to) &&
        !FEATURE_MEANT[`${from} -> ${to}`]
      )
        problems.push(
          `${file} imports ${target}: the feature ${from} may not import the feature ${to} (share it in shared/).`,
        );
    }
    if (part === 'src-main/services' && targetPart === part) {
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from === to) continue;
      if (!layerOf.has(from) || !layerOf.has(to)) {
        problems.push(
          `${file}: the room ${layerOf.has(from) ? to : from} is not in ROOM_LAYERS (build/check-rooms.mjs).`,
        );
      } else if (layerOf.get(to) >= layerOf.get(from)) {
        problems.push(`${file} imports ${target}: the room ${from} may not import ${to} (see ROOM_LAYERS).`);
      }
    }
  }
}

// Tests: every room says where its tests are, and they are there.
for (const room of ROOM_LAYERS.flat()) {
  const tests = ROOM_TESTS[room];
  if (!tests?.length) problems.push(`The room ${room} names no tests in ROOM_TESTS (build/check-rooms.mjs).`);
  for (const name of tests ?? []) {
    if (!known.has(`src-main/test/${name}.test.ts`))
      problems.push(`ROOM_TESTS: src-main/test/${name}.test.ts is missing.`);
  }
}

// Circles: Tarjan's strongly connected components over every import, test code included.
let index = 0;
const stack = [];
const state = new Map();
function connect(file) {
  const me = { index, low: index, onStack: true };
  index++;
  state.set(file, me);
  stack.push(file);
  for (const next of edges.get(file) ?? []) {
    const seen = state.get(next);
    if (!seen) {
      connect(next);
      me.low = Math.min(me.low, state.get(next).low);
    } else if (seen.onStack) me.low = Math.min(me.low, seen.index);
  }
  if (me.low === me.index) {
    const circle = [];
    let member;
    do {
      member = stack.pop();
      state.get(member).onStack = false;
      circle.push(member);
    } while (member !== file);
    const selfImport = circle.length === 1 && (edges.get(file) ?? []).includes(file);
    if (circle.length > 1 || selfImport)
      problems.push(`A circle of imports: ${circle.sort().join(' <-> ')}.`);
  }
}
for (const file of files) if (!state.has(file)) connect(file);

// Names: a base name in two parts (tests and their subjects aside) says two concepts are one.
const byName = new Map();
for (const file of files) {
  if (!/^(src-main|src-renderer|src-shared|sandbox)\//.test(file) || TEST_CODE.test(file)) continue;
  const name = posix.basename(file).replace(SOURCE, '');
  if (SAME_CONCEPT[name]) continue;
  byName.set(name, [...(byName.get(name) ?? []), file]);
}
for (const [name, holders] of byName) {
  if (holders.length > 1)
    problems.push(`${holders.join(' and ')} share the name ${name}: name each for what it holds.`);
}

if (problems.length) {
  console.error(`check-rooms: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log(
    `check-rooms: ${files.length} files, imports one way, no circles, names apart, sizes within limits`,
  );
}
