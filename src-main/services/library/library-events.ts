import type { EventHub } from '../host/event-hub';

/** A batch whose download finished is new images in the library: the window's gallery refreshes on it. */
export function relayFinishedDownloads(events: EventHub): void {
  events.subscribe((event, payload) => {
    if (event === 'batch.updated' && (payload as { download: { state: string } }).download.state === 'done') {
      events.emit('library.changed', { reason: 'download' });
    }
  });
}
