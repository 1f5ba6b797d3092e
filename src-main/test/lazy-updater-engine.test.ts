// The desktop updater is loaded at its first check, not at start (lazy-updater-engine.ts).
import { describe, expect, it } from 'vitest';
import type { UpdatePreferences } from '../../src-shared/updates';
import { LazyUpdaterEngine } from '../services/updates/lazy-updater-engine';
import type { UpdaterEngine } from '../services/updates/updater-engine';

function scripted() {
  const seen: string[] = [];
  const engine: UpdaterEngine = {
    configure: (p) => void seen.push(`configure ${p.channel}`),
    check: async () => (seen.push('check'), { version: '2.0.0', notes: {} }),
    download: async (progress) => (seen.push('download'), progress(100)),
    install: () => void seen.push('install'),
  };
  return { engine, seen };
}

const beta: UpdatePreferences = { mode: 'automatic', channel: 'beta', installOnQuit: false };

describe('the updater loaded when first needed', () => {
  it('loads nothing until a check, then applies the preferences given before', async () => {
    const { engine, seen } = scripted();
    let loads = 0;
    const lazy = new LazyUpdaterEngine(async () => (loads++, engine));
    lazy.configure(beta);
    expect(loads).toBe(0);
    expect(() => lazy.install()).toThrow();
    expect(await lazy.check()).toMatchObject({ version: '2.0.0' });
    await lazy.download(() => undefined);
    lazy.install();
    lazy.configure({ ...beta, channel: 'latest' });
    await lazy.check();
    expect(loads).toBe(1);
    expect(seen).toEqual(['configure beta', 'check', 'download', 'install', 'configure latest', 'check']);
  });

  it('tries the load again at the next check after one that failed', async () => {
    const { engine } = scripted();
    let loads = 0;
    const lazy = new LazyUpdaterEngine(async () => {
      if (loads++ === 0) throw new Error('no updater');
      return engine;
    });
    await expect(lazy.check()).rejects.toThrow('no updater');
    expect(await lazy.check()).toMatchObject({ version: '2.0.0' });
    expect(loads).toBe(2);
  });
});
