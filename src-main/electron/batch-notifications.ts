import { Notification } from 'electron';
import type { BatchView } from '../../src-shared/batch-view';
import { en } from '../../src-shared/i18n/en';
import { isMessageName } from '../../src-shared/i18n/message-keys';
import { zhCN } from '../../src-shared/i18n/zh-CN';
import type { StudioServices } from '../services/studio-services';

function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ''));
}

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
    const messages = settings.language === 'zh-CN' ? zhCN : en;
    const notification = new Notification({
      title: fill(messages.notifications.title, {
        name: batch.taskName,
        status: isMessageName('status', batch.status) ? messages.status[batch.status] : batch.status,
      }),
      body: fill(messages.notifications.body, {
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
