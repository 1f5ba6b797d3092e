import { describe, expect, it } from 'vitest';
import type { UpdateStatus, WorkInProgress } from '../../src-shared/updates';
import type { FoundUpdate, UpdaterEngine } from '../services/updates/updater-engine';
import { promptsDraft } from './helpers/prompts-draft';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

/**
 * "Restart now" against the studio's real work: real services, their sandbox gateway held slow, a
 * submission on the wire, a batch downloading, a knowledge-base upload. The engine is scripted (the
 * feed is another test's); what is checked is that the restart happens, and only when nothing runs.
 */
class ReadyEngine implements UpdaterEngine {
  /** What was running at the moment of each install: all zeros, or the guard failed. */
  installedDuring: WorkInProgress[] = [];
  constructor(private workNow: () => WorkInProgress) {}
  configure(): void {}
  check(): Promise<FoundUpdate | null> {
    return Promise.resolve({ version: '2.0.0', notes: { en: 'New' } });
  }
  download(): Promise<void> {
    return Promise.resolve();
  }
  install(): void {
    this.installedDuring.push(this.workNow());
  }
}

async function servicesWithUpdate() {
  let engine!: ReadyEngine;
  const services = await startServices({
    updates: {
      availability: { kind: 'ready' },
      get engine() {
        engine ??= new ReadyEngine(() => services.updates.status().waitingFor);
        return engine;
      },
    },
  });
  const ready: UpdateStatus = await call(services, 'updates.check');
  expect(ready.phase).toBe('ready');
  return { services, engine };
}

describe('"Restart now" while the studio works', () => {
  it('waits for a submission being sent, then restarts', async () => {
    const { services, engine } = await servicesWithUpdate();
    services.sandbox.faults.set('slow=1,slow_ms=1500');
    const submitted = call(services, 'batches.submit', {
      draft: promptsDraft('busy-submit', 'Busy', ['a cat']),
    });
    await waitUntil(
      () => services.updates.status().waitingFor.submissions,
      (n) => n === 1,
    );
    const waiting: UpdateStatus = await call(services, 'updates.restart');
    expect(waiting).toMatchObject({ restartPending: true, waitingFor: { submissions: 1 } });
    expect(engine.installedDuring).toEqual([]);
    const { submission } = await submitted;
    await waitUntil(
      () => engine.installedDuring.length,
      (n) => n > 0,
    );
    expect(engine.installedDuring).toEqual([{ downloads: 0, submissions: 0, kbUploads: 0 }]);
    // The submission's outcome is known (its batch created), not left for the next start to ask.
    expect(submission.state).toBe('created');
  });

  it('waits for a batch downloading into the library, then restarts', async () => {
    const { services, engine } = await servicesWithUpdate();
    await call(services, 'batches.submit', { draft: promptsDraft('busy-download', 'Busy', ['a dog']) });
    // Every answer slow from here: the batch completes, and its download takes its time.
    services.sandbox.faults.set('slow=1,slow_ms=400');
    await waitUntil(
      () => services.updates.status().waitingFor.downloads,
      (n) => n === 1,
    );
    const waiting: UpdateStatus = await call(services, 'updates.restart');
    expect(waiting).toMatchObject({ restartPending: true, waitingFor: { downloads: 1 } });
    expect(engine.installedDuring).toEqual([]);
    await waitUntil(
      () => engine.installedDuring.length,
      (n) => n > 0,
    );
    expect(engine.installedDuring).toEqual([{ downloads: 0, submissions: 0, kbUploads: 0 }]);
    // The restart came after the batch reached the library, not in the middle of its download.
    const [batch] = await call(services, 'batches.list');
    expect(batch.download.state).toBe('done');
  });

  it('waits for a knowledge-base upload, and says so, then restarts', async () => {
    const { services, engine } = await servicesWithUpdate();
    services.sandbox.faults.set('slow=1,slow_ms=300');
    const rows = Array.from({ length: 6 }, (_, i) => ({ q: `How is shot ${i} lit?`, a: `Softly, ${i}.` }));
    await call(services, 'kb.push', { rows, mode: 'index', chunkSize: 2 });
    const waiting: UpdateStatus = await call(services, 'updates.restart');
    expect(waiting).toMatchObject({ restartPending: true, waitingFor: { kbUploads: 1 } });
    services.sandbox.faults.set('');
    await waitUntil(
      () => engine.installedDuring.length,
      (n) => n > 0,
    );
    expect(engine.installedDuring).toEqual([{ downloads: 0, submissions: 0, kbUploads: 0 }]);
    const [push] = await call(services, 'kb.pushes');
    expect(push.state).toBe('done');
  });
});
