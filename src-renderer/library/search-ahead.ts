/**
 * The searches asked for while a person types, before the typing pause ends (useAskAhead): one
 * out at a time, and a text typed meanwhile waits; when the one out is answered, only the newest
 * text that waited is asked. Fast typing so never queues searches in main, and the last text
 * typed is always asked.
 */
export function searchAhead<T>(send: (text: T) => Promise<unknown>): (text: T) => void {
  let out = false;
  let waiting: { text: T } | undefined;
  const ask = (text: T): void => {
    if (out) {
      waiting = { text };
      return;
    }
    out = true;
    void send(text)
      .catch(() => undefined)
      .finally(() => {
        out = false;
        const next = waiting;
        waiting = undefined;
        if (next) ask(next.text);
      });
  };
  return ask;
}
