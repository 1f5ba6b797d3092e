import { readFileSync } from 'node:fs';
import { startStudio } from './studio-session';
const root = process.argv[2]!;
const s = await startStudio({ dataDir: `${root}.gallery-data` });
const cpu = () => { const f = readFileSync(`/proc/${s.pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
try {
  await s.call('settings.update', { libraryDir: root });
  await s.call('library.overview');
  for (const [search, limit] of [['lavender', 200], ['walnut', 200], ['青花', 200], ['木桌', 200], ['', 200]] as const) {
    const f0 = cpu(); const w0 = performance.now();
    const r = await s.call('library.query', { search, review: 'any', minStars: 0, sort: 'newest', offset: 0, limit });
    console.log(search, r.total, 'first: cpu', cpu() - f0, 'wall', (performance.now() - w0).toFixed(0));
    const c0 = cpu(); const t0 = performance.now();
    for (let i = 0; i < 20; i++) await s.call('library.query', { search, review: 'any', minStars: 0, sort: 'newest', offset: (i % 5) * 200, limit });
    console.log(search || '(all)', limit, 'cpu ms/query', ((cpu() - c0) / 20).toFixed(1), 'wall', ((performance.now() - t0) / 20).toFixed(0));
  }
} finally { await s.stop(); }
