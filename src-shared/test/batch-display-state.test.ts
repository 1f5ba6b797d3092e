import { describe, expect, it } from 'vitest';
import {
  BATCH_DISPLAY_KINDS,
  batchDisplayState,
  displayFilterValue,
  downloadOffer,
  failedDownloadMessage,
  inLibrary,
  matchesStateFilter,
  type DisplayInput,
} from '../batch-display-state';
import { BATCH_STATUSES, type DownloadState } from '../batch-view';

const DOWNLOAD_STATES: DownloadState['state'][] = [
  'none',
  'queued',
  'downloading',
  'verifying',
  'done',
  'failed',
  'unavailable',
];
const IN_FLIGHT = new Set(['queued', 'downloading', 'verifying']);
const reason = {
  code: 'STUDIO_ZIP_REJECTED',
  message: 'cut short',
  retryable: true,
  source: 'studio' as const,
};

function input(
  status: string,
  goneOnServer: boolean,
  state: DownloadState['state'],
  folder: boolean,
  elsewhere = false,
): DisplayInput {
  return {
    status,
    goneOnServer,
    download: {
      state,
      attempts: 1,
      ...(elsewhere ? { elsewhere } : {}),
      ...(folder ? { folder: '2026-11-22 mugs imgbatch_1', images: 4 } : {}),
      ...(state === 'failed' ? { error: reason } : {}),
    },
  };
}

describe('batch display state', () => {
  // Every combination of server status and local state: exactly one display state, by the rules.
  const combos = BATCH_STATUSES.flatMap((status) =>
    [false, true].flatMap((gone) =>
      DOWNLOAD_STATES.flatMap((state) =>
        [false, true].flatMap((folder) =>
          // Another studio of the team holding the download: only ever said of a queued one.
          (state === 'queued' ? [false, true] : [false]).map((elsewhere) => ({
            status,
            gone,
            state,
            folder,
            elsewhere,
          })),
        ),
      ),
    ),
  );

  it.each(combos)(
    '$status gone=$gone download=$state folder=$folder elsewhere=$elsewhere',
    ({ status, gone, state, folder, elsewhere }) => {
      const shown = batchDisplayState(input(status, gone, state, folder, elsewhere));
      expect(BATCH_DISPLAY_KINDS).toContain(shown.kind);
      // The same input always reads the same.
      expect(batchDisplayState(input(status, gone, state, folder, elsewhere))).toEqual(shown);
      if (elsewhere) {
        expect(shown).toEqual({ kind: 'downloading-elsewhere' });
      } else if (IN_FLIGHT.has(state)) {
        expect(shown.kind).toBe(
          ({ queued: 'waiting-slot', downloading: 'downloading', verifying: 'verifying' } as const)[
            state as 'queued'
          ],
        );
      } else if (folder) {
        // In the library while the folder is there, whatever the server says.
        expect(shown).toEqual({ kind: 'in-library', images: 4 });
      } else if (gone) {
        expect(shown).toEqual({ kind: 'gone' });
      } else if (state === 'failed') {
        expect(shown).toEqual({ kind: 'download-failed', error: reason });
      } else if (status === 'output_deleted' || state === 'unavailable') {
        expect(shown).toEqual({ kind: 'expired' });
      } else {
        expect(shown).toEqual({ kind: 'server', status });
      }
      // A batch the server no longer has never reads as running or queued.
      if (gone) expect(shown.kind).not.toBe('server');
    },
  );

  it('covers every kind with some combination', () => {
    const seen = new Set(
      combos.map((c) => batchDisplayState(input(c.status, c.gone, c.state, c.folder, c.elsewhere)).kind),
    );
    expect([...seen].sort()).toEqual([...BATCH_DISPLAY_KINDS].sort());
  });

  it('says which item of how many the item-by-item fallback is on, and which image is verified', () => {
    const downloading = input('completed', false, 'downloading', false);
    expect(
      batchDisplayState(downloading, {
        batchId: 'b',
        phase: 'items',
        received: 0,
        images: 3,
        imagesTotal: 10,
      }),
    ).toEqual({ kind: 'downloading', item: 3, of: 10 });
    // A ZIP's byte progress has no item count.
    expect(
      batchDisplayState(downloading, { batchId: 'b', phase: 'downloading', received: 10, total: 100 }),
    ).toEqual({ kind: 'downloading' });
    expect(
      batchDisplayState(input('completed', false, 'verifying', false), {
        batchId: 'b',
        phase: 'verifying',
        received: 0,
        images: 2,
        imagesTotal: 5,
      }),
    ).toEqual({ kind: 'verifying', item: 2, of: 5 });
  });

  it('reads a deleted running batch as gone, not running (the reported bug)', () => {
    expect(batchDisplayState(input('running', true, 'none', false))).toEqual({ kind: 'gone' });
  });

  it('keeps a library batch in the library when the server deletes it or its outputs', () => {
    expect(batchDisplayState(input('output_deleted', false, 'unavailable', true)).kind).toBe('in-library');
    expect(batchDisplayState(input('completed', true, 'unavailable', true)).kind).toBe('in-library');
  });

  it('reads an unknown status from a newer gateway as still in flight', () => {
    expect(batchDisplayState(input('paused', false, 'none', false))).toEqual({
      kind: 'server',
      status: 'running',
    });
  });

  it('gives filters the status for server states and the kind otherwise', () => {
    expect(displayFilterValue({ kind: 'server', status: 'settling' })).toBe('settling');
    expect(displayFilterValue({ kind: 'in-library' })).toBe('in-library');
  });
});

describe('the state filter', () => {
  it('matches server statuses the server still has, and local kinds by the one derivation', () => {
    const library = input('completed', false, 'done', true);
    expect(matchesStateFilter(library, batchDisplayState(library), 'completed')).toBe(true);
    expect(matchesStateFilter(library, batchDisplayState(library), 'in-library')).toBe(true);
    const gone = input('running', true, 'none', false);
    expect(matchesStateFilter(gone, batchDisplayState(gone), 'running')).toBe(false);
    expect(matchesStateFilter(gone, batchDisplayState(gone), 'gone')).toBe(true);
    expect(matchesStateFilter(gone, batchDisplayState(gone), '')).toBe(true);
  });
});

describe('what Download now offers', () => {
  const combos = BATCH_STATUSES.flatMap((status) =>
    [false, true].flatMap((gone) =>
      DOWNLOAD_STATES.flatMap((state) =>
        [false, true].flatMap((folder) =>
          [0, 2].map((missing) => ({ status, gone, state, folder, missing })),
        ),
      ),
    ),
  );

  it.each(combos)(
    '$status gone=$gone download=$state folder=$folder missing=$missing',
    ({ status, gone, state, folder, missing }) => {
      const batch = input(status, gone, state, folder);
      if (missing && folder) batch.download.missing = missing;
      const offer = downloadOffer(batch);
      const onServer = status === 'completed' && !gone && state !== 'unavailable';
      if (IN_FLIGHT.has(state)) expect(offer.kind).toBe('busy');
      // Nothing on the server to download: never offered, in the library or not.
      else if (!onServer) expect(offer.kind).toBe('none');
      // A library batch (a failed re-download included) is never downloaded over without asking:
      // it gets its missing images, or a replacement after a confirm.
      else if (folder)
        expect(offer).toEqual(missing ? { kind: 'fetch-missing', missing } : { kind: 'replace', images: 4 });
      else expect(offer.kind).toBe('download');
      expect(inLibrary(batch)).toBe(folder);
    },
  );
});

describe('a failed download', () => {
  it('carries its retry time only when one is set', () => {
    const failed = input('completed', false, 'failed', false);
    expect(batchDisplayState(failed)).not.toHaveProperty('retryAt');
    const state = batchDisplayState({
      ...failed,
      download: { ...failed.download, nextRetryAt: 1_795_000_000_000 },
    });
    expect(state).toEqual({ kind: 'download-failed', error: reason, retryAt: 1_795_000_000_000 });
    expect(failedDownloadMessage(state as Extract<typeof state, { kind: 'download-failed' }>).key).toBe(
      'batches.stateDownloadFailedRetryAt',
    );
    expect(failedDownloadMessage({ kind: 'download-failed', error: reason }).key).toBe(
      'batches.stateDownloadFailed',
    );
  });

  it('says how many images a library folder lacks', () => {
    const library = input('completed', false, 'done', true);
    expect(batchDisplayState({ ...library, download: { ...library.download, missing: 2 } })).toEqual({
      kind: 'in-library',
      images: 4,
      missing: 2,
    });
  });
});
