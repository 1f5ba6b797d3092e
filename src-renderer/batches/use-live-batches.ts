import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchView } from '../../src-shared/batch-view';
import { isMessageName } from '../../src-shared/i18n/message-keys';
import { useNavigation } from '../app/navigation-store';
import { useStudio } from '../app/studio-context';
import { activeProfileId, queryKey, useStudioQuery } from '../app/studio-queries';

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
      client.setQueryData<BatchView[]>(queryKey('batches.list'), (list) => {
        if (!list) return list;
        const at = list.findIndex((b) => b.id === batch.id);
        if (batch.id && at < 0) return [batch, ...list];
        return list.map((b) => (b.id === batch.id ? batch : b));
      });
      client.setQueryData(queryKey('batches.get', { id: batch.id }), batch);
    };
    const offs = [
      studio.on('batch.updated', (batch) => {
        if (!ours(batch)) return;
        const before = client.getQueryData<BatchView>(queryKey('batches.get', { id: batch.id }));
        upsert(batch);
        // Items change when images arrive, and when the server loses the batch (then the saved draft's).
        const itemsChanged =
          (batch.download.state === 'done' && before?.download.state !== 'done') ||
          (batch.goneOnServer && before?.goneOnServer === false);
        if (itemsChanged) {
          void client.invalidateQueries({ queryKey: queryKey('batches.items', { id: batch.id }) });
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
        void client.invalidateQueries({ queryKey: queryKey('batches.items', { id: batch.id }) });
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
    return () => offs.forEach((off) => off());
  }, [studio, client, host, notify, t, go]);
}
