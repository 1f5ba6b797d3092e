import type { CDPSession } from '@playwright/test';
import { readFileSync } from 'node:fs';

/** The studio's memory from /proc: now and its peak, over the process and any children it started. */
export function rss(pid: number): { now: number; peak: number } {
  const status = (p: number) => {
    try {
      return readFileSync(`/proc/${p}/status`, 'utf8');
    } catch {
      return '';
    }
  };
  const kb = (text: string, key: string) =>
    Number(new RegExp(`${key}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) * 1024;
  const children = (p: number): number[] => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  const tree = [pid, ...children(pid).flatMap((c) => [c, ...children(c)])];
  return {
    now: tree.reduce((sum, p) => sum + kb(status(p), 'VmRSS'), 0),
    peak: tree.reduce((sum, p) => sum + kb(status(p), 'VmHWM'), 0),
  };
}

/** Bytes the page receives over the network, headers and bodies, as Chromium's network stack counts them. */
export async function byteCounter(cdp: CDPSession): Promise<() => number> {
  let bytes = 0;
  cdp.on('Network.responseReceived', (e) => (bytes += e.response.encodedDataLength || 0));
  cdp.on('Network.dataReceived', (e) => (bytes += e.encodedDataLength || e.dataLength));
  await cdp.send('Network.enable');
  return () => bytes;
}

export async function heapUsed(cdp: CDPSession): Promise<number> {
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

/** The page's main-thread time so far, in seconds, by kind, from Chromium's own counters. */
export async function mainThreadTime(
  cdp: CDPSession,
): Promise<{ task: number; script: number; style: number; layout: number }> {
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const of = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return {
    task: of('TaskDuration'),
    script: of('ScriptDuration'),
    style: of('RecalcStyleDuration'),
    layout: of('LayoutDuration'),
  };
}

/**
 * The page's DOM nodes, as Chromium counts them once garbage is collected (nodes no longer in the
 * document go with it): the page's size as a person's machine carries it.
 */
export async function domNodes(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'Nodes')?.value ?? 0;
}
