import { Agent, request, type IncomingMessage } from 'node:http';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_API_BODY_BYTES } from '../web/web-host';
import { startTestBrowserMode } from './helpers/browser-mode-fixture';

const { host } = await startTestBrowserMode('web-limits');

interface Answer {
  status: number;
  body: any;
  /** Bytes of the body the client had handed to the socket when the answer came. */
  sent: number;
}

/**
 * A POST whose body is written by `send` as a slow client would; resolves with the answer as soon
 * as it arrives, whatever is still unsent.
 */
function post(
  method: string,
  headers: Record<string, string | number>,
  send: (write: (chunk: Buffer) => Promise<boolean>) => Promise<void>,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(`${host.origin}/api/${method}`, {
      // Keep-alive as browsers do, on a connection of its own, never one a half-sent upload left behind.
      agent: new Agent({ keepAlive: true }),
      method: 'POST',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json', ...headers },
    });
    req.on('response', (res: IncomingMessage) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()), sent });
        // As browsers do: an upload answered before it was sent whole is dropped with its connection.
        req.destroy();
      });
    });
    // Writing on after the studio hung up fails; the answer is what counts.
    req.on('error', (err) => !answered && reject(err));
    const write = (chunk: Buffer) =>
      new Promise<boolean>((done) => {
        if (answered || req.destroyed) return done(false);
        sent += chunk.length;
        req.write(chunk, () => done(!answered));
      });
    void send(write).then(() => !answered && !req.destroyed && req.end());
  });
}

describe('browser mode API body limits', () => {
  it('refuses a body whose Content-Length is over the limit before reading it', async () => {
    const declared = 200 * 1024 * 1024;
    // Only the first kilobyte is ever sent: an answer can only come from the declared length.
    const answer = await post('references.add', { 'content-length': declared }, async (write) => {
      await write(Buffer.from(`{"name":"big.png","dataBase64":"${'A'.repeat(1000)}`));
    });
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({ code: 'STUDIO_BODY_TOO_LARGE', retryable: false });
    expect(answer.body.error.message).toContain('64 MB');
  });

  it('stops reading a chunked body once it passes the limit', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const answer = await post('settings.get', { 'transfer-encoding': 'chunked' }, async (write) => {
      // Twice the limit, unless the studio answers first.
      for (let i = 0; i < (2 * MAX_API_BODY_BYTES) / chunk.length; i++) if (!(await write(chunk))) return;
    });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe('STUDIO_BODY_TOO_LARGE');
    expect(answer.sent).toBeLessThan(2 * MAX_API_BODY_BYTES);
  });

  it("answers a body that is not JSON in plain words, without the parser's text", async () => {
    const body = Buffer.from('{"name": "a.png", dataBase64: ');
    const answer = await post('references.add', { 'content-length': body.length }, async (write) => {
      await write(body);
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({
      code: 'STUDIO_INVALID_INPUT',
      message: 'The request body is not valid JSON.',
      retryable: false,
      source: 'studio',
    });
    expect(answer.body.error.message).not.toMatch(/position|unexpected|token|line \d|column/i);
  });

  it('still takes a large legitimate call: a 10 MB reference image', async () => {
    const png = await sharp({
      create: {
        width: 2200,
        height: 1600,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(png.length).toBeGreaterThan(10 * 1024 * 1024);
    const body = Buffer.from(JSON.stringify({ name: 'photo.png', dataBase64: png.toString('base64') }));
    const answer = await post('references.add', { 'content-length': body.length }, async (write) => {
      await write(body);
    });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ name: 'photo.png', mime: 'image/png', bytes: png.length });
    // The connection refused above left the studio answering as before.
    const after = await fetch(`${host.origin}/api/settings.get`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.token}` },
    });
    expect(after.status).toBe(200);
  });
});
