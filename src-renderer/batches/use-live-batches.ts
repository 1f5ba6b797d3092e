import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchView } from '../../src-shared/batch-view';
import { isMessageName } from '../../src-shared/i18n/message-keys';
import { useNavigation } from '../app/navigation-store';
import { useStudio } from '../app/studio-context';
import { activeProfileId, queryKey, useStudioQuery, writePushed } from '../app/studio-queries';

/**
 * Batch events go straight into the cache: the list, the open batch and the cost totals change as
 * the gateway moves, and nothing in the window polls or re-asks. In browser mode the window itself
 * notifies when a batch finishes; the desktop app does it from main.
 */
export function useLiveBatches(): void {
  const studio = useStudio();
  const client = useQueryClient();
  const { t } = useTranslation();
  const go = useNavigation((s) => s.go);
  const info = useStudioQuery('app.info');
  const settings = useStudioQuery('settings.get');
  const host = info.data?.host;
  const notify = settings.data?.notifications;

  useEffect(() => {
    // Main tracks every profile's batches; this window shows the active profile's only.
    const ours = (batch: { profileId: string }) => batch.profileId === activeProfileId();
    const upsert = (batch: BatchView) => {
      writePushed<BatchView[]>(client, queryKey('batches.list'), (list) => {
        if (!list) return list;
        const at = list.findIndex((b) => b.id === batch.id);
        // A batch new to the list is one just made or found; one gone from the server is not, and
        // may be one removed from the list (see below), so it is not put back.
        if (batch.id && at < 0) return batch.goneOnServer ? list : [batch, ...list];
        return list.map((b) => (b.id === batch.id ? batch : b));
      });
      writePushed<BatchView>(client, queryKey('batches.get', { id: batch.id }), () => batch);
    };
    const items = coalescedItemRefresh(client);
    const offs = [
      studio.on('batch.updated', (batch) => {
        if (!ours(batch)) return;
        const before =
          client.getQueryData<BatchView>(queryKey('batches.get', { id: batch.id })) ??
          client.getQueryData<BatchView[]>(queryKey('batches.list'))?.find((b) => b.id === batch.id);
        upsert(batch);
        // Items change when images arrive, and when the server loses the batch (then the saved draft's):
        // asked again at once.
        if (
          (batch.download.state === 'done' && before?.download.state !== 'done') ||
          (batch.goneOnServer && before?.goneOnServer === false)
        )
          items.now(batch.id);
        // While it runs, each item that finishes moves the counts: an open detail asks again, at
        // most about once a second, so its rows follow without a call per update.
        else if (
          before &&
          (before.successCount !== batch.successCount || before.failCount !== batch.failCount)
        )
          // The last counts of a finished batch are asked at once, and nothing is left to come later.
          if (batch.terminal) items.now(batch.id);
          else items.soon(batch.id);
        // The event of a removal (batches.deleteRecord, from any window) carries no mark of its own:
        // it reads as the batch gone from the server. A batch gone from the server is no longer
        // polled, so such updates are rare, and each makes the list be asked again: main leaves a
        // removed batch out, and keeps one the server merely lost.
        if (batch.goneOnServer) {
          void client.invalidateQueries({ queryKey: queryKey('batches.list') });
        }
      }),
      // The totals come computed by main, and only when a change moved them: a batch update costs
      // the window no call. A first answer still on its way is older than the event, so it yields.
      studio.on('costs.changed', (costs) => {
        if (!ours(costs)) return;
        const key = queryKey('batches.costs');
        void client.cancelQueries({ queryKey: key }).then(() => client.setQueryData(key, costs));
      }),
      studio.on('batch.finished', (batch) => {
        if (!ours(batch)) return;
        items.now(batch.id);
        if (
          host !== 'browser' ||
          !notify ||
          !('Notification' in window) ||
          Notification.permission !== 'granted'
        )
          return;
        const n = new Notification(
          t('notifications.title', {
            name: batch.taskName,
            status: isMessageName('status', batch.status) ? t(`status.${batch.status}`) : batch.status,
          }),
          {
            body: t('notifications.body', {
              success: batch.successCount,
              failed: batch.failCount,
              total: batch.itemCount,
            }),
            tag: batch.id,
          },
        );
        n.onclick = () => {
          window.focus();
          go('batches', batch.id);
        };
      }),
      studio.on('app.showBatch', ({ id }) => go('batches', id)),
      studio.on('submission.updated', (submission) => {
        if (!ours(submission)) return;
        void client.invalidateQueries({ queryKey: queryKey('batches.submissions') });
        void client.invalidateQueries({ queryKey: ['batches.lastSent'] });
      }),
    ];
    return () => {
      offs.forEach((off) => off());
      items.stop();
    };
  }, [studio, client, host, notify, t, go]);
}

/** How often, at most, a running batch's items are asked again while an open detail shows them. */
const ITEMS_REFRESH_MS = 1000;

/**
 * Per batch: `now` asks for its items at once; `soon` asks at once when nothing was asked in the
 * last second, else once at the end of that second, however many updates came meanwhile. Only a
 * detail on screen fetches: for a batch nobody shows, the cached answer is just marked stale.
 */
function coalescedItemRefresh(client: QueryClient) {
  const last = new Map<string, number>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const ask = (id: string) => {
    last.set(id, Date.now());
    void client.invalidateQueries({ queryKey: queryKey('batches.items', { id }) });
  };
  const now = (id: string) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
    ask(id);
  };
  const soon = (id: string) => {
    if (timers.has(id)) return;
    const wait = (last.get(id) ?? 0) + ITEMS_REFRESH_MS - Date.now();
    if (wait <= 0) return ask(id);
    timers.set(
      id,
      setTimeout(() => {
        timers.delete(id);
        ask(id);
      }, wait),
    );
  };
  const stop = () => timers.forEach((timer) => clearTimeout(timer));
  return { now, soon, stop };
}
