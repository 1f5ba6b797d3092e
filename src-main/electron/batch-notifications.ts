import { BrowserWindow, Notification } from 'electron';
import type { BatchView } from '../../src-shared/batch-view';
import { en } from '../../src-shared/i18n/en';
import { zhCN } from '../../src-shared/i18n/zh-CN';
import type { StudioServices } from '../services/studio-services';

function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ''));
}

/** A desktop notification when a batch finishes, with its counts; a click opens the batch. */
export function notifyFinishedBatches(
  services: StudioServices,
  window: () => BrowserWindow | undefined,
): void {
  services.events.subscribe((event, payload) => {
    if (event !== 'batch.finished' || !Notification.isSupported()) return;
    const settings = services.settings.get();
    if (!settings.notifications) return;
    const batch = payload as BatchView;
    const messages = settings.language === 'zh-CN' ? zhCN : en;
    const notification = new Notification({
      title: fill(messages.notifications.title, {
        name: batch.taskName,
        status: messages.status[batch.status as keyof typeof messages.status] ?? batch.status,
      }),
      body: fill(messages.notifications.body, {
        success: batch.successCount,
        failed: batch.failCount,
        total: batch.itemCount,
      }),
    });
    notification.on('click', () => {
      const win = window();
      if (!win) return;
      if (win.isMinimized()) win.restore();
      win.focus();
      services.events.emit('app.showBatch', { id: batch.id });
    });
    notification.show();
  });
}
