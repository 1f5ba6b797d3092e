import { Notification } from 'electron';
import type { BatchView } from '../../src-shared/batch-view';
import { isMessageName } from '../../src-shared/i18n/message-keys';
import { translatorIn } from '../../src-shared/i18n/translator';
import type { StudioServices } from '../services/studio-services';

/**
 * A desktop notification when a batch finishes, with its counts; a click opens the batch (`open`
 * brings the window forward, or opens it again on that batch when it was closed).
 */
export function notifyFinishedBatches(services: StudioServices, open: (batchId: string) => void): void {
  const pending = new Set<Notification>();
  services.events.subscribe((event, payload) => {
    if (event !== 'batch.finished' || !Notification.isSupported()) return;
    const settings = services.settings.get();
    if (!settings.notifications) return;
    const batch = payload as BatchView;
    const t = translatorIn(settings.language);
    const notification = new Notification({
      title: t('notifications.title', {
        name: batch.taskName,
        status: isMessageName('status', batch.status) ? t(`status.${batch.status}`) : batch.status,
      }),
      body: t('notifications.body', {
        success: batch.successCount,
        failed: batch.failCount,
        total: batch.itemCount,
      }),
    });
    // Held until used: a notification collected by the garbage collector no longer answers clicks.
    pending.add(notification);
    notification.on('click', () => {
      pending.delete(notification);
      open(batch.id);
    });
    notification.on('close', () => pending.delete(notification));
    notification.show();
  });
}
