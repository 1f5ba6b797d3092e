/** The two Electron IPC channels that carry the StudioApi: calls in, events out. */
export const IPC_CALL_CHANNEL = 'studio:call';
export const IPC_EVENT_CHANNEL = 'studio:event';
