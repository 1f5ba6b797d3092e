import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servicesGate } from '../web/services-start';
import { startWebHost } from '../web/web-host';

describe('browser mode starts its services once the page is in', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits for the page files being sent, and a moment after the last, before a call starts them', () => {
    const start = vi.fn();
    const gate = servicesGate(start, { quietMs: 30, fallbackMs: 1000 });
    gate.arm();
    const html = gate.sending();
    html();
    const script = gate.sending();
    gate.wanted();
    vi.advanceTimersByTime(100);
    expect(start).not.toHaveBeenCalled();
    script();
    vi.advanceTimersByTime(20);
    // The scripts ask for a screen's chunk within the moment: it goes first too.
    const chunk = gate.sending();
    vi.advanceTimersByTime(100);
    expect(start).not.toHaveBeenCalled();
    chunk();
    chunk();
    vi.advanceTimersByTime(30);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts them for a call with no page, and once only', () => {
    const start = vi.fn();
    const gate = servicesGate(start, { quietMs: 30, fallbackMs: 1000 });
    gate.arm();
    gate.wanted();
    vi.advanceTimersByTime(30);
    expect(start).toHaveBeenCalledTimes(1);
    gate.wanted();
    gate.sending()();
    vi.advanceTimersByTime(5000);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts them with nobody asking, once no file is being sent', () => {
    const start = vi.fn();
    const gate = servicesGate(start, { quietMs: 30, fallbackMs: 1000, latestMs: 3000 });
    gate.arm();
    const slow = gate.sending();
    vi.advanceTimersByTime(1500);
    expect(start).not.toHaveBeenCalled();
    slow();
    vi.advanceTimersByTime(30);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts them at the latest a few seconds on, whatever a slow client is still reading', () => {
    const start = vi.fn();
    const gate = servicesGate(start, { quietMs: 30, fallbackMs: 1000, latestMs: 3000 });
    gate.arm();
    const stuck = gate.sending();
    gate.wanted();
    vi.advanceTimersByTime(2999);
    expect(start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(start).toHaveBeenCalledTimes(1);
    stuck();
    vi.advanceTimersByTime(5000);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('starts them on no timer before the host listens, and from then on its own clock', () => {
    const start = vi.fn();
    const gate = servicesGate(start, { quietMs: 30, fallbackMs: 1000, latestMs: 3000 });
    // A host slow to listen (or failing to) leaves nothing loading behind it.
    vi.advanceTimersByTime(5000);
    expect(start).not.toHaveBeenCalled();
    gate.arm();
    vi.advanceTimersByTime(1029);
    expect(start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('lets the services load their packages only at moments no file of the page is being sent', async () => {
    const gate = servicesGate(vi.fn());
    gate.arm();
    const file = gate.sending();
    let idle = false;
    void gate.idle().then(() => (idle = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(idle).toBe(false);
    file();
    await vi.advanceTimersByTimeAsync(0);
    expect(idle).toBe(true);
  });
});

describe('the web host tells the gate of the page loading', () => {
  it('names a script sent a page whose calls follow, and the HTML alone not', async () => {
    const rendererDir = mkdtempSync(join(tmpdir(), 'studio-renderer-'));
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
    mkdirSync(join(rendererDir, 'assets'));
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    const gate = { sending: vi.fn(() => () => undefined), wanted: vi.fn() };
    const host = await startWebHost({ services: new Promise(() => undefined), rendererDir, gate });
    try {
      expect((await fetch(`${host.origin}/`)).status).toBe(200);
      expect(gate.sending).toHaveBeenCalledTimes(1);
      expect(gate.wanted).not.toHaveBeenCalled();
      const script = await fetch(`${host.origin}/assets/app.js`);
      expect(await script.text()).toBe('console.log(1)');
      await vi.waitFor(() => expect(gate.wanted).toHaveBeenCalled());
    } finally {
      await host.close();
    }
  });
});
