// The rooms check (`npm run lint:rooms`) on the real tree, and on small trees that break each rule
// once: it must name every break, in words that say where.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'check-rooms.mjs');

function check(root?: string): { ok: boolean; out: string } {
  try {
    const out = execFileSync(process.execPath, [script, ...(root ? ['--root', root] : [])], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { ok: true, out };
  } catch (err: any) {
    return { ok: false, out: `${err.stdout}${err.stderr}` };
  }
}

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'rooms-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the rooms check', () => {
  it('passes on the repository as it is', () => {
    const { ok, out } = check();
    expect(out).toContain('no circles');
    expect(ok).toBe(true);
  });

  it('names a circle, a wrong direction, a shared name, a file too long and one feature reaching into another', () => {
    const { ok, out } = check(
      tree({
        'src-main/services/zip/zip-a.ts': "import { b } from './zip-b';\nexport const a = b;\n",
        'src-main/services/zip/zip-b.ts':
          "import type { a } from './zip-a';\nexport const b = 1 as typeof a;\n",
        'src-main/services/storage/disk.ts': "import { a } from '../zip/zip-a';\nexport const d = a;\n",
        'src-renderer/library/Grid.tsx':
          "import { d } from '../../src-main/services/storage/disk';\nexport const g = d;\n",
        'sandbox/disk.ts': 'export const s = 1;\n',
        'src-renderer/library/Long.tsx': 'export const x = 1;\n'.repeat(301),
        'src-renderer/compose/compose-page.ts': 'export const c = 1;\n',
        'src-renderer/batches/batch-page.ts':
          "import { c } from '../compose/compose-page';\nexport const p = c;\n",
      }),
    );
    expect(ok).toBe(false);
    expect(out).toContain(
      'A circle of imports: src-main/services/zip/zip-a.ts <-> src-main/services/zip/zip-b.ts.',
    );
    expect(out).toContain('the room storage may not import zip');
    expect(out).toContain('src-renderer may import only src-renderer, src-shared');
    expect(out).toContain('src-main/services/storage/disk.ts and sandbox/disk.ts share the name disk');
    expect(out).toContain('src-renderer/library/Long.tsx: 301 lines; files stay under 300.');
    expect(out).toContain('the feature batches may not import the feature compose');
  });
});
