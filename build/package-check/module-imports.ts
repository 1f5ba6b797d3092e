// What the built bundles import at run time, and whether the packaged app can find it.
import { execFile } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * `from "x"`, `import "x"`, `import("x")` and `require("x")`, as Vite and Rollup write them; the
 * keyword must start a token, so that strings such as `q.get("from")` are not read as imports.
 */
const IMPORT =
  /(?:^|[\s;,(={}])(?:from|import)\s*\(?\s*["']([@\w][\w@/.-]*)["']|\brequire\(\s*["']([@\w][\w@/.-]*)["']/gm;

async function scripts(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await scripts(path)));
    else if (/\.(m?js|cjs)$/.test(entry.name)) found.push(path);
  }
  return found;
}

/** The bare package specifiers (no Node built-ins, no relative paths) imported by the scripts in `dirs`. */
export async function bareImports(dirs: string[]): Promise<string[]> {
  const specifiers = new Set<string>();
  for (const dir of dirs) {
    for (const file of await scripts(dir)) {
      for (const match of (await readFile(file, 'utf8')).matchAll(IMPORT)) {
        const specifier = (match[1] ?? match[2])!;
        if (!isBuiltin(specifier)) specifiers.add(specifier);
      }
    }
  }
  return [...specifiers].sort();
}

/**
 * Runs an ES module's `source` with plain Node as if it were a file in `fromDir`, with a clean
 * environment so that nothing but the packaged node_modules can answer its imports; returns stdout.
 */
export async function runBeside(fromDir: string, source: string): Promise<string> {
  const probe = join(fromDir, 'package-check-probe.mjs');
  await writeFile(probe, source);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [probe], {
      cwd: fromDir,
      env: { PATH: process.env.PATH ?? '' },
    });
    return stdout;
  } finally {
    await rm(probe, { force: true });
  }
}

/** The specifiers plain Node cannot resolve from a module in `fromDir`. */
export async function unresolvable(fromDir: string, specifiers: string[]): Promise<string[]> {
  const stdout = await runBeside(
    fromDir,
    `const failed = [];\n` +
      `for (const s of ${JSON.stringify(specifiers)}) {\n` +
      `  try { import.meta.resolve(s); } catch { failed.push(s); }\n` +
      `}\n` +
      `console.log(JSON.stringify(failed));\n`,
  );
  return JSON.parse(stdout) as string[];
}
