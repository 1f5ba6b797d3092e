import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../src-shared/studio-api';
import { StudioError } from '../../src-shared/studio-error';
import { queryKey, studioMutationOptions } from '../app/studio-queries';

/** A studio whose every call answers `answer` (or fails with it), recording what was asked. */
function fakeStudio(answer: unknown, fail = false) {
  const calls: [string, unknown][] = [];
  const studio: Pick<StudioApi, 'call'> = {
    call: (method, input) => {
      calls.push([method, input]);
      return fail ? Promise.reject(answer as Error) : Promise.resolve(answer as never);
    },
  };
  return { studio, calls };
}

function seeded() {
  const client = new QueryClient();
  client.setQueryData(queryKey('batches.list', undefined, 'p1'), []);
  client.setQueryData(queryKey('batches.list', undefined, 'p2'), []);
  client.setQueryData(queryKey('batches.items', { id: 'b1' }, 'p1'), []);
  client.setQueryData(queryKey('drafts.list'), []);
  return client;
}

const stale = (client: QueryClient, key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;

describe('studio mutations', () => {
  it('calls the method and marks every cached answer of the named reads stale, and only those', async () => {
    const client = seeded();
    const { studio, calls } = fakeStudio({ added: 1, updated: 0 });
    const observer = new MutationObserver(
      client,
      studioMutationOptions(studio, client, 'batches.sync', { invalidates: ['batches.list'] }),
    );
    await expect(observer.mutate({})).resolves.toEqual({ added: 1, updated: 0 });
    expect(calls).toEqual([['batches.sync', {}]]);
    expect(stale(client, queryKey('batches.list', undefined, 'p1'))).toBe(true);
    expect(stale(client, queryKey('batches.list', undefined, 'p2'))).toBe(true);
    expect(stale(client, queryKey('batches.items', { id: 'b1' }, 'p1'))).toBe(false);
    expect(stale(client, queryKey('drafts.list'))).toBe(false);
  });

  it('keeps a failure as the mutation error and still refreshes what the call may have changed', async () => {
    const client = seeded();
    const refusal = new StudioError({ code: 'BATCH_NOT_FOUND', message: 'gone' });
    const { studio } = fakeStudio(refusal, true);
    const observer = new MutationObserver(
      client,
      studioMutationOptions(studio, client, 'batches.cancel', { invalidates: ['batches.items'] }),
    );
    await expect(observer.mutate({ id: 'b1' })).rejects.toBe(refusal);
    expect(observer.getCurrentResult().error).toBe(refusal);
    expect(stale(client, queryKey('batches.items', { id: 'b1' }, 'p1'))).toBe(true);
    expect(stale(client, queryKey('batches.list', undefined, 'p1'))).toBe(false);
  });
});
