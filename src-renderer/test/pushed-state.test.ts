import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { writePushed } from '../app/studio-queries';

/**
 * A read of main's state whose first answer is served at once but read late (a slow response), as
 * the window's first list is while batches are finishing: `main` is what main holds now.
 */
function slowFirstAnswer(client: QueryClient, key: readonly unknown[], main: { state: string }) {
  let release!: () => void;
  let calls = 0;
  const observer = new QueryObserver(client, {
    queryKey: key,
    staleTime: Infinity,
    queryFn: async () => {
      calls += 1;
      const served = main.state;
      if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
      return served;
    },
  });
  const off = observer.subscribe(() => undefined);
  return { calls: () => calls, release: () => release(), off };
}

describe('a pushed state and an answer on its way', () => {
  it('keeps the event when the older answer arrives after it, by asking once more', async () => {
    const client = new QueryClient();
    const key = ['batches.list', {}, 'p1'];
    const main = { state: 'processing_results' };
    const read = slowFirstAnswer(client, key, main);
    await vi.waitFor(() => expect(read.calls()).toBe(1));
    // Main moves on and says so while the first answer (made before) is still on its way.
    main.state = 'completed';
    writePushed<string>(client, key, () => 'completed');
    read.release();
    await vi.waitFor(() => expect(client.getQueryData(key)).toBe('completed'));
    expect(read.calls()).toBe(2);
    read.off();
  });

  it('asks once more for many events during one answer, and lets that answer arrive', async () => {
    const client = new QueryClient();
    const key = ['batches.list', {}, 'p1'];
    const main = { state: 'running' };
    const read = slowFirstAnswer(client, key, main);
    await vi.waitFor(() => expect(read.calls()).toBe(1));
    for (const state of ['running 1', 'running 2', 'running 3', 'completed']) {
      main.state = state;
      writePushed<string>(client, key, () => state);
    }
    read.release();
    await vi.waitFor(() => expect(client.getQueryData(key)).toBe('completed'));
    expect(read.calls()).toBe(2);
    read.off();
  });

  it('writes the event straight into the cache when no answer is on its way', async () => {
    const client = new QueryClient();
    const key = ['batches.list', {}, 'p1'];
    client.setQueryData(key, 'running');
    writePushed<string>(client, key, () => 'completed');
    expect(client.getQueryData(key)).toBe('completed');
  });
});
