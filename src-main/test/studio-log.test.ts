import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { logCaught, logFolder } from '../services/log/studio-log';
import { call, startServices } from './studio-fixture';

const services = await startServices();
const logFile = join(services.dataDir, 'logs', 'studio.log');

describe('the studio log', () => {
  it('is written in the data folder, and records an error the studio recovered from', async () => {
    expect(logFolder()).toBe(join(services.dataDir, 'logs'));
    // A search history the studio cannot read: it carries on with an empty one, and says so in the log.
    mkdirSync(join(services.dataDir, 'kb'), { recursive: true });
    writeFileSync(join(services.dataDir, 'kb', 'searches.json'), '[{"id": "kbq_1", ');
    expect(await call(services, 'kb.history')).toEqual([]);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toMatch(/\[warn\].*\[knowledge-base search history read\] SyntaxError/);
  });

  it('never holds a key, even one quoted inside an error message', async () => {
    const key = 'sk-live-7f3a9c0d41e2b8a6';
    await call(services, 'profiles.save', {
      name: 'Production',
      baseUrl: 'https://gateway.example.com',
      gatewayKey: key,
    });
    logCaught('gateway call', new Error(`401 from https://gateway.example.com: invalid key ${key}`));
    logCaught('gateway call', { header: `Bearer ${key}` });
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('[gateway call] Error: 401 from https://gateway.example.com: invalid key');
    expect(log).not.toContain(key);
    expect(log).not.toContain(key.slice(0, 12));
  });
});
