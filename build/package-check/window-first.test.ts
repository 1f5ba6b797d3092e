// The desktop app's start path, read from the built main bundle (Electron cannot run here): what the
// window waits for is what out/main/index.js loads before it, statically. The services, and every
// heavy module, must stay behind dynamic imports that run after the window is made.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const outMain = resolve(dirname(fileURLToPath(import.meta.url)), '../../out/main');

/** What a module imports statically (`import … from "x"`, `import "x"`), not `import("x")`. */
function staticImports(code: string): string[] {
  return [
    ...code.matchAll(
      /^\s*(?:import|export)\s[^;'"]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm,
    ),
  ].map((m) => (m[1] ?? m[2])!);
}

/** Every module the entry loads before it runs a line: its static imports, followed through the chunks. */
function loadedBeforeStart(entry: string): { chunks: string[]; packages: string[] } {
  const chunks = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (chunks.has(file)) return;
    chunks.add(file);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) visit(join(dirname(file), spec));
      else
        packages.add(
          spec

            .split('/')
            .slice(0, spec.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  };
  visit(join(outMain, entry));
  return { chunks: [...chunks].map((c) => c.slice(outMain.length + 1)), packages: [...packages] };
}

describe('the desktop window comes first', () => {
  const entry = readFileSync(join(outMain, 'index.js'), 'utf8');
  const before = loadedBeforeStart('index.js');

  it('loads neither the services nor a heavy package before the window', () => {
    expect(before.chunks.some((c) => /studio-services|browser-services|cl100k/.test(c))).toBe(false);
    for (const heavy of [
      'sharp',
      'libsql',
      'pdfkit',
      'exceljs',
      '@napi-rs/canvas',
      'electron-updater',
      'js-tiktoken',
    ])
      expect(before.packages).not.toContain(heavy);
  });

  it('makes the window before it imports the services and the updater', () => {
    const window = entry.search(/\n\s*createWindow\(\);/);
    // The services beyond the first screen's start in studio-start (which imports studio-services).
    const services = entry.search(/import\(["']\.\/chunks\/studio-(?:services|start)-[^"']+\.js["']\)/);
    expect(window).toBeGreaterThan(0);
    expect(services).toBeGreaterThan(window);
    // The updater is loaded by desktopUpdates(), which start() awaits after createWindow().
    const updates = entry.search(/await desktopUpdates\(\)/);
    expect(updates).toBeGreaterThan(window);
  });
});
