import { describe, expect, it } from 'vitest';
import type { RealtimeJob } from '../../src-shared/realtime-view';
import { call, startServices, waitUntil } from './helpers/studio-fixture';

describe('realtime jobs', () => {
  it('run two at a time per profile, the rest queued in view, and cancel works on either', async () => {
    const services = await startServices({
      sandbox: { faults: 'slow=1,slow_ms=600' },
      realtimeClient: { sleep: async () => undefined },
    });
    const jobs: RealtimeJob[] = [];
    for (let i = 0; i < 4; i++)
      jobs.push(
        await call(services, 'realtime.generate', {
          prompt: `teapot ${i}`,
          model: 'imgvendor-3.1-flash-image',
        }),
      );
    const snapshot = await waitUntil(
      () => call(services, 'realtime.jobs') as Promise<RealtimeJob[]>,
      (list) => list.filter((j) => j.state === 'running').length === 2,
    );
    expect(snapshot.filter((j) => j.state === 'queued')).toHaveLength(2);
    await call(services, 'realtime.cancel', { id: jobs[3]!.id });
    const end = await waitUntil(
      () => call(services, 'realtime.jobs') as Promise<RealtimeJob[]>,
      (list) => list.every((j) => j.state !== 'queued' && j.state !== 'running'),
    );
    expect(end.filter((j) => j.state === 'done')).toHaveLength(3);
    expect(end.find((j) => j.id === jobs[3]!.id)!.state).toBe('cancelled');
  });
});
