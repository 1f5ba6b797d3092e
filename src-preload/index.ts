import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from '../src-shared/ipc-channels';

type CallResult = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The StudioApi and nothing else: no ipcRenderer, no Node, no channel the renderer can choose. */
const studio = {
  async call(method: string, input: unknown): Promise<unknown> {
    const result = (await ipcRenderer.invoke(IPC_CALL_CHANNEL, method, input)) as CallResult;
    if (result.ok) return result.value;
    // A plain object survives the bridge whole; the renderer turns it back into a StudioError.
    throw result.error;
  },
  on(event: string, listener: (payload: unknown) => void): () => void {
    const handler = (_e: unknown, name: string, payload: unknown) => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
  },
};

contextBridge.exposeInMainWorld('studio', studio);
