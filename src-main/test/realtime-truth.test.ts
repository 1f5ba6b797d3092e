import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../sandbox/gateway';
import { RealtimeClient } from '../services/realtime/realtime-client';

const sandbox: Sandbox = await createSandbox({ timeScale: 1000 });
const client = new RealtimeClient(
  { baseUrl: sandbox.url, key: 'sk-sandbox-alice' },
  { sleep: async () => undefined },
);

describe('a realtime refusal says what it is', () => {
  it('a content-policy refusal is reported as such, not as a bad parameter, and is sent once', async () => {
    const before = sandbox.inspect().requests.realtime ?? 0;
    const error = await client
      .generate({
        model: 'imgvendor-3.1-flash-image',
        prompt: 'a fox [blocked]',
        images: [],
        imageSize: '1K',
      })
      .catch((err: unknown) => err);
    expect(error).toMatchObject({ code: 'SAFETY_BLOCKED', httpStatus: 400, retryable: false });
    expect((error as { requestId?: string }).requestId).toMatch(/\S+/);
    expect((sandbox.inspect().requests.realtime ?? 0) - before).toBe(1);
  });
});
