import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import {
  followEventStream,
  readEventStream,
  reconnectWaitMs,
  type EventStreamState,
} from '../app/event-stream';
import { startTestBrowserMode } from '../../src-main/test/helpers/browser-mode-fixture';

/** A response body that arrives in the given pieces, as a network delivers it. */
function bodyOf(pieces: string[]) {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(stream).body!;
}

describe('reading server-sent events', () => {
  it('joins multi-line data, keeps the last id and the server retry, skips comments, across split chunks', async () => {
    const events: EventSourceMessage[] = [];
    const state: EventStreamState = {};
    await readEventStream(
      bodyOf([
        ': connected\n\n',
        'event: batch.updated\nda',
        'ta: {"id":\ndata: "b1"}\nid: 7\n',
        '\nretry: 2500\n\n',
        'event: library.changed\r\ndata: {"reason":"marks"}\r\n\r\n',
        'data: no event name\nid: 9\n\n',
      ]),
      (m) => events.push(m),
      state,
    );
    expect(events.map((m) => [m.event, m.data, m.id])).toEqual([
      ['batch.updated', '{"id":\n"b1"}', '7'],
      ['library.changed', '{"reason":"marks"}', undefined],
      [undefined, 'no event name', '9'],
    ]);
    expect(JSON.parse(events[0]!.data)).toEqual({ id: 'b1' });
    expect(state).toEqual({ lastEventId: '9', retryMs: 2500 });
  });

  it('waits the server retry when there is one, else doubles up to a ceiling, give or take a fifth', () => {
    expect([0, 1].map((r) => reconnectWaitMs(3, 2500, () => r))).toEqual([2000, 3000]);
    expect([1, 2, 3, 4, 5, 9].map((n) => reconnectWaitMs(n, undefined, () => 0.5))).toEqual([
      500, 1000, 2000, 4000, 5000, 5000,
    ]);
    expect(reconnectWaitMs(1, undefined, () => 0)).toBe(400);
    expect(reconnectWaitMs(1, undefined, () => 1)).toBe(600);
  });
});

describe('following a stream over HTTP', () => {
  it('reconnects after the stream ends or fails, with the server retry and Last-Event-ID', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      if (seen.length === 2) return res.writeHead(500).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (seen.length === 1) res.end('retry: 1234\nid: 41\nevent: first\ndata: line one\ndata: line two\n\n');
      else res.write('event: third\ndata: {"n":3}\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const stop = new AbortController();
    const waits: number[] = [];
    const events: EventSourceMessage[] = [];
    let opens = 0;
    await followEventStream({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`,
      headers: { authorization: 'Bearer t' },
      onOpen: () => opens++,
      onEvent: (m) => {
        events.push(m);
        if (m.event === 'third') stop.abort();
      },
      signal: stop.signal,
      sleep: async (ms) => void waits.push(ms),
    });
    server.closeAllConnections();
    server.close();
    expect(events.map((m) => [m.event, m.data])).toEqual([
      ['first', 'line one\nline two'],
      ['third', '{"n":3}'],
    ]);
    expect(opens).toBe(2);
    expect(seen.map((h) => [h.authorization, h['last-event-id']])).toEqual([
      ['Bearer t', undefined],
      ['Bearer t', '41'],
      ['Bearer t', '41'],
    ]);
    // After the end, and after the 500: the server's retry each time, with jitter.
    expect(waits).toHaveLength(2);
    for (const ms of waits) expect(ms >= 987 && ms <= 1481).toBe(true);
  });

  it("hears the studio's own events from the browser-mode host", async () => {
    const { host } = await startTestBrowserMode('events');
    const stop = new AbortController();
    const heard: unknown[] = [];
    const following = followEventStream({
      url: `${host.origin}/api/events`,
      headers: { authorization: `Bearer ${host.token}` },
      onOpen: () =>
        void fetch(`${host.origin}/api/settings.update`, {
          method: 'POST',
          headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ language: 'zh-CN' }),
        }),
      onEvent: ({ event, data }) => {
        if (event !== 'settings.changed') return;
        heard.push(JSON.parse(data));
        stop.abort();
      },
      signal: stop.signal,
    });
    await following;
    expect(heard).toEqual([expect.objectContaining({ language: 'zh-CN' })]);
  });
});
