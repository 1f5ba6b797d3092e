import { describe, expect, it } from 'vitest';
import type { KbPush } from '../../src-shared/kb-view';
import { call, startServices } from './helpers/studio-fixture';
import { saveAs } from './helpers/table-encodings';

/** 500 rows: 460 valid and unique, 20 over the index limit, 20 repeats of earlier rows. */
function csvOf500(): { text: string; valid: number } {
  const lines = ['question,answer'];
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  for (let i = 0; i < 460; i++)
    lines.push(
      `${quote(`Style rule ${i}: how do we light product shot ${i}?`)},${quote(`Soft window light from the left, rule ${i}. 规则 ${i}`)}`,
    );
  for (let i = 0; i < 20; i++) lines.push(`${quote(`Long rule ${i}: ${'hello '.repeat(3100)}`)},answer`);
  for (let i = 0; i < 20; i++)
    lines.push(
      `${quote(`Style rule ${i}: how do we light product shot ${i}?`)},${quote(`Soft window light from the left, rule ${i}. 规则 ${i}`)}`,
    );
  return { text: lines.join('\n'), valid: 460 };
}

describe('pushing to the knowledge base', () => {
  it('a CSV of 500 rows, some over the limits and some repeated, ends in the knowledge base exactly once each, under faults', async () => {
    const services = await startServices({
      sandbox: { faults: 'all=0.2,slow_ms=50,seed=4' },
      kbSleep: async () => undefined,
    });
    const { text, valid } = csvOf500();
    const rows = await call(services, 'kb.readCsv', {
      name: 'faq.csv',
      dataBase64: Buffer.from(text).toString('base64'),
    });
    expect(rows).toHaveLength(500);
    const checked = await call(services, 'kb.check', { rows, mode: 'index' });
    expect(checked.filter((r: any) => r.over)).toHaveLength(20);
    expect(checked.filter((r: any) => r.duplicate)).toHaveLength(20);
    expect(checked.find((r: any) => r.over).split.length).toBeGreaterThan(1);

    let push: KbPush = await call(services, 'kb.push', { rows, mode: 'index', chunkSize: 40 });
    expect(push.rows).toBe(valid);
    push = await waitForPush(services, push.id);
    // Chunks that still failed after their retries are sent again, and only they.
    for (let round = 0; push.state !== 'done' && round < 10; round++) {
      await call(services, 'kb.resume', { id: push.id });
      push = await waitForPush(services, push.id);
    }
    expect(push).toMatchObject({ state: 'done', chunksSent: push.chunks, inserted: valid });
    expect(services.sandbox.inspect().kbRecords).toEqual({ 'kb-docs': valid });
    services.sandbox.faults.set('');
    const found = await call(services, 'kb.search', {
      prompts: ['how do we light product shot 42'],
      similarity: 0.3,
      limit: 3,
    });
    expect(found.rawSearch[0].q).toBe('Style rule 42: how do we light product shot 42?');
    expect(found.quotePrompt).toContain('Style rule 42');
    const history = await call(services, 'kb.history');
    expect(history[0].prompts).toEqual(['how do we light product shot 42']);
  }, 120_000);

  it('reads a question and answer CSV in the encoding its spreadsheet saved it in', async () => {
    const services = await startServices();
    const rows = [
      { q: '我们的水彩风格是什么？', a: '柔和的边缘，低饱和的色调，可见的纸张纹理。' },
      { q: 'Which paper do we show?', a: 'Cold-pressed, "not" hot-pressed; 300 grams.' },
    ];
    const csv = `question,answer\r\n${rows.map((r) => [r.q, r.a].map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\r\n')}\r\n`;
    const tsv = `question\tanswer\r\n${rows.map((r) => `${r.q}\t${r.a.replace(/"/g, '')}`).join('\r\n')}\r\n`;
    // Chinese Excel and WPS save CSV as GB18030; Excel's "Unicode Text" is UTF-16 with tabs.
    for (const [name, bytes, expected] of [
      ['faq.csv', saveAs(csv, 'gb18030'), rows],
      ['faq.csv', saveAs(csv, 'utf-8-bom'), rows],
      ['faq.txt', saveAs(tsv, 'utf-16le'), rows.map((r) => ({ ...r, a: r.a.replace(/"/g, '') }))],
    ] as const) {
      const read = await call(services, 'kb.readCsv', { name, dataBase64: bytes.toString('base64') });
      expect(read, name).toEqual(expected);
    }
    // Bytes no encoding fits are refused in words, not read as U+FFFD.
    const refused = await services.dispatch('kb.readCsv', {
      name: 'faq.csv',
      dataBase64: Buffer.from([0x71, 0x2c, 0x61, 0x0a, 0xff, 0xfe, 0x00, 0x00, 0xc3]).toString('base64'),
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'STUDIO_IMPORT_NOT_TEXT' } });
  });

  it('a wrong key is an error even though the HTTP status is 200', async () => {
    const services = await startServices();
    await call(services, 'profiles.save', {
      id: 'sandbox',
      name: 'Sandbox',
      baseUrl: services.sandbox.url,
      kbKey: 'kb-wrong',
      defaultAppId: 'app-sandbox',
      defaultKbId: 'kb-docs',
    });
    const search = await services.dispatch('kb.search', { prompts: ['x'], similarity: 0.5, limit: 3 });
    expect(!search.ok && search.error).toMatchObject({
      code: 'unAuthApiKey',
      httpStatus: 200,
      source: 'gateway',
      retryable: false,
    });
    const push = await call(services, 'kb.push', {
      rows: [{ q: 'a question', a: 'an answer' }],
      mode: 'index',
    });
    const end = await waitForPush(services, push.id);
    expect(end.state).toBe('refused');
    expect(end.error).toMatchObject({ code: 'unAuthApiKey', httpStatus: 200 });
    expect(services.sandbox.inspect().kbRecords).toEqual({});
  });

  it('an upload interrupted by a restart resumes without sending a row twice', async () => {
    const first = await startServices({
      sandbox: { faults: 'slow=1,slow_ms=150' },
      kbSleep: async () => undefined,
      keepOpen: true,
    });
    const rows = Array.from({ length: 100 }, (_, i) => ({ q: `resume question ${i}`, a: `answer ${i}` }));
    const push = await call(first, 'kb.push', { rows, mode: 'index', chunkSize: 20 });
    for (let i = 0; i < 200; i++) {
      const now = ((await call(first, 'kb.pushes')) as KbPush[]).find((p) => p.id === push.id)!;
      if (now.chunksSent >= 2) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await first.close();

    const second = await startServices({ dataDir: first.dataDir, kbSleep: async () => undefined });
    const paused = ((await call(second, 'kb.pushes')) as KbPush[]).find((p) => p.id === push.id)!;
    expect(paused.state).toBe('paused');
    expect(paused.chunksSent).toBeGreaterThanOrEqual(2);
    expect(paused.chunksSent).toBeLessThan(5);
    await call(second, 'kb.resume', { id: push.id });
    const end = await waitForPush(second, push.id);
    expect(end).toMatchObject({ state: 'done', inserted: 100, chunksSent: 5 });
    expect(second.sandbox.inspect().kbRecords).toEqual({ 'kb-docs': 100 });
  });
});

async function waitForPush(services: any, id: string): Promise<KbPush> {
  for (let i = 0; i < 600; i++) {
    const list: KbPush[] = await call(services, 'kb.pushes');
    const push = list.find((p) => p.id === id)!;
    if (push.state !== 'running') return push;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the upload never ended');
}
