import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Two real Syncthing instances on this machine, for tests of a library kept in step by a sync tool.
// Everything that could leave the machine is off: discovery (global and local), relays, NAT traversal,
// usage and crash reporting, upgrades. Each instance listens on 127.0.0.1 only, has a home (and HOME)
// of its own, and knows the other by device id; A dials B at its exact address (see device()).

/** Debian's package; the tests skip with this reason when it is missing. */
export const syncthingMissing: string | undefined =
  spawnSync('syncthing', ['--version'], { encoding: 'utf8' }).status === 0
    ? undefined
    : 'syncthing is not installed (apt-get install syncthing)';

type Side = 'a' | 'b';

interface Instance {
  side: Side;
  home: string;
  dir: string;
  deviceId: string;
  apiKey: string;
  guiPort: number;
  syncPort: number;
  child?: ChildProcessWithoutNullStreams;
  pid?: number;
}

export interface SyncthingPairOptions {
  dirA: string;
  dirB: string;
  folderId?: string;
  /** Lines of a `.stignore` written in both folder roots before start (Syncthing never syncs it). */
  ignores?: string[];
}

export interface SyncthingPair {
  readonly folderId: string;
  readonly dirs: Record<Side, string>;
  readonly deviceIds: Record<Side, string>;
  /** Calls one instance's REST API (JSON in and out); throws on a non-2xx answer. */
  rest(side: Side, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown>;
  /** Scans the folder on both sides now (the call returns when each scan is done). */
  rescan(): Promise<void>;
  /** Scans both sides, then waits until both are connected, idle, need nothing and see the other at 100 %. */
  waitInSync(timeoutMs?: number): Promise<void>;
  /** Until `predicate` holds for the file's bytes on one side (undefined while it is missing). */
  waitFor(
    side: Side,
    relPath: string,
    predicate: (bytes: Buffer | undefined) => boolean,
    timeoutMs?: number,
  ): Promise<Buffer | undefined>;
  /** Pauses the link between the two (each pauses the other device) until it is down, or resumes it until it is up. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Stops both instances (SIGTERM, then SIGKILL) and removes their homes; the folders stay. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// All held open at once, so that no two of them are the same port.
async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.on('error', reject);
          server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            resolve(typeof address === 'object' && address ? address.port : 0);
          });
        }),
    ),
  );
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function generate(home: string): string {
  const out = spawnSync('syncthing', ['generate', `--home=${home}`, '--no-default-folder'], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home, STNOUPGRADE: '1' },
  });
  const id = /Device ID:\s*([A-Z0-9-]{63})/.exec(`${out.stdout}\n${out.stderr}`)?.[1];
  if (out.status !== 0 || !id) throw new Error(`syncthing generate failed: ${out.stderr || out.stdout}`);
  return id;
}

// Only A dials (B's entry for A says "dynamic", which resolves to nothing with discovery off): when both
// dial at once, as at start and after a resume, Syncthing 1.19 can hold both connections and stall in
// the Hello exchange for 20 s before it retries.
function device(peer: Instance, dial: boolean): string {
  return `<device id="${peer.deviceId}" name="${peer.side}" compression="metadata" introducer="false">
        <address>${dial ? `tcp://127.0.0.1:${peer.syncPort}` : 'dynamic'}</address>
        <paused>false</paused>
        <autoAcceptFolders>false</autoAcceptFolders>
    </device>`;
}

// The whole config, written before the first start (version 36 is Syncthing 1.19's; newer ones migrate it).
function config(self: Instance, peer: Instance, folderId: string): string {
  return `<configuration version="36">
    <folder id="${folderId}" label="library" path="${self.dir}" type="sendreceive" rescanIntervalS="5" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
        <filesystemType>basic</filesystemType>
        <device id="${self.deviceId}"></device>
        <device id="${peer.deviceId}"></device>
        <minDiskFree unit="%">1</minDiskFree>
        <versioning></versioning>
        <paused>false</paused>
        <markerName>.stfolder</markerName>
        <maxConflicts>10</maxConflicts>
    </folder>
    ${device(self, false)}
    ${device(peer, self.side === 'a')}
    <gui enabled="true" tls="false" debugging="false">
        <address>127.0.0.1:${self.guiPort}</address>
        <apikey>${self.apiKey}</apikey>
        <theme>default</theme>
    </gui>
    <options>
        <listenAddress>tcp://127.0.0.1:${self.syncPort}</listenAddress>
        <globalAnnounceServer></globalAnnounceServer>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <reconnectionIntervalS>5</reconnectionIntervalS>
        <relaysEnabled>false</relaysEnabled>
        <startBrowser>false</startBrowser>
        <natEnabled>false</natEnabled>
        <urAccepted>-1</urAccepted>
        <urURL></urURL>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <releasesURL></releasesURL>
        <crashReportingURL></crashReportingURL>
        <crashReportingEnabled>false</crashReportingEnabled>
        <announceLANAddresses>false</announceLANAddresses>
        <stunServer></stunServer>
        <stunKeepaliveStartS>0</stunKeepaliveStartS>
        <setLowPriority>false</setLowPriority>
        <progressUpdateIntervalS>1</progressUpdateIntervalS>
    </options>
</configuration>
`;
}

// A shell between us and Syncthing, so that no orphan survives us: it stops Syncthing when its stdin
// closes, which the kernel does when this process ends, however it ends (a SIGKILL included).
// Syncthing logs to a file, not to a pipe of ours that could break first. STMONITORED runs it as one
// process: its usual monitor process, once killed, would leave the real one running.
const WATCHDOG = `syncthing "$@" >"$ST_LOG" 2>&1 & st=$!
echo "pid $st"
read -r _ || true
kill -TERM $st 2>/dev/null
wait $st`;

function start(self: Instance): void {
  const child = spawn(
    'sh',
    [
      '-c',
      WATCHDOG,
      'sh',
      'serve',
      `--home=${self.home}`,
      '--no-browser',
      '--no-restart',
      '--no-upgrade',
      '--no-default-folder',
    ],
    {
      detached: false,
      env: {
        ...process.env,
        HOME: self.home,
        ST_LOG: join(self.home, 'syncthing.log'),
        STMONITORED: '1',
        STNOUPGRADE: '1',
        STNORESTART: '1',
        STNODEFAULTFOLDER: '1',
      },
    },
  );
  child.stdout.on(
    'data',
    (chunk: Buffer) => (self.pid ??= Number(/^pid (\d+)$/m.exec(chunk.toString())?.[1])),
  );
  child.stderr.resume();
  self.child = child;
}

function logTail(self: Instance): string {
  try {
    return readFileSync(join(self.home, 'syncthing.log'), 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}

async function stopOne(self: Instance): Promise<void> {
  const child = self.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin.end();
  const clean = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
  if (clean) return;
  if (self.pid) {
    try {
      process.kill(self.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  child.kill('SIGKILL');
  await exited;
}

export async function startSyncthingPair(options: SyncthingPairOptions): Promise<SyncthingPair> {
  if (syncthingMissing) throw new Error(syncthingMissing);
  const folderId = options.folderId ?? 'library';
  const root = mkdtempSync(join(tmpdir(), 'syncthing-pair-'));
  const [guiA = 0, syncA = 0, guiB = 0, syncB = 0] = await freePorts(4);
  const make = (side: Side, dir: string, guiPort: number, syncPort: number): Instance => {
    const home = join(root, side);
    mkdirSync(home, { recursive: true });
    const deviceId = generate(home);
    return { side, home, dir, deviceId, apiKey: randomBytes(16).toString('hex'), guiPort, syncPort };
  };
  const a = make('a', options.dirA, guiA, syncA);
  const b = make('b', options.dirB, guiB, syncB);
  const bySide = { a, b };
  const other = (self: Instance) => (self === a ? b : a);
  for (const self of [a, b]) {
    writeFileSync(join(self.home, 'config.xml'), config(self, other(self), folderId));
    // The marker Syncthing looks for in a folder's root (as it makes when a person shares a folder).
    mkdirSync(join(self.dir, '.stfolder'), { recursive: true });
    if (options.ignores) writeFileSync(join(self.dir, '.stignore'), options.ignores.join('\n') + '\n');
  }

  const rest = async (side: Side, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const self = bySide[side];
    const res = await fetch(`http://127.0.0.1:${self.guiPort}${path}`, {
      method,
      headers: {
        'X-API-Key': self.apiKey,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`syncthing ${side} ${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };

  const until = async <T>(
    what: string,
    probe: () => Promise<T | undefined>,
    timeoutMs: number,
  ): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    for (;;) {
      const gone = [a, b].find((s) => s.child && (s.child.exitCode !== null || s.child.signalCode !== null));
      if (gone) throw new Error(`syncthing ${gone.side} has exited\n${logTail(gone)}`);
      try {
        const value = await probe();
        if (value !== undefined) return value;
      } catch (err) {
        last = err;
      }
      if (Date.now() > deadline) {
        const logs = [a, b].map((s) => `--- ${s.side} ---\n${logTail(s)}`).join('\n');
        throw new Error(
          `syncthing pair: timed out waiting for ${what} (${String(last ?? 'no error')})\n${logs}`,
        );
      }
      await sleep(200);
    }
  };

  const folder = encodeURIComponent(folderId);
  const connected = async (self: Instance) => {
    const connections = (await rest(self.side, 'GET', '/rest/system/connections')) as any;
    return connections.connections?.[other(self).deviceId]?.connected === true;
  };
  const sideInSync = async (self: Instance) => {
    const peer = other(self);
    const status = (await rest(self.side, 'GET', `/rest/db/status?folder=${folder}`)) as any;
    const completion = (await rest(
      self.side,
      'GET',
      `/rest/db/completion?folder=${folder}&device=${peer.deviceId}`,
    )) as any;
    return (
      (await connected(self)) &&
      status.state === 'idle' &&
      status.needTotalItems === 0 &&
      status.pullErrors === 0 &&
      completion.completion === 100 &&
      completion.needItems === 0 &&
      completion.needDeletes === 0
    );
  };

  const stop = async () => {
    await Promise.all([stopOne(a), stopOne(b)]);
    rmSync(root, { recursive: true, force: true });
  };

  const pair: SyncthingPair = {
    folderId,
    dirs: { a: a.dir, b: b.dir },
    deviceIds: { a: a.deviceId, b: b.deviceId },
    rest,
    async rescan() {
      await Promise.all([a, b].map((s) => rest(s.side, 'POST', `/rest/db/scan?folder=${folder}`)));
    },
    async waitInSync(timeoutMs = 30_000) {
      // Scanned first: what a studio has just written may not be seen yet (the watcher waits a
      // second, then gathers), and two idle sides that both lack it would pass for in step.
      // Retried: a folder still starting answers a scan with an error.
      await until('a scan of both sides', async () => (await pair.rescan(), true), timeoutMs);
      let streak = 0;
      // Twice in a row, so that an index just sent but not yet applied cannot pass for agreement.
      await until(
        'both sides in sync',
        async () => {
          const ok = (await sideInSync(a)) && (await sideInSync(b));
          streak = ok ? streak + 1 : 0;
          return streak >= 2 ? true : undefined;
        },
        timeoutMs,
      );
    },
    async waitFor(side, relPath, predicate, timeoutMs = 30_000) {
      const file = join(bySide[side].dir, relPath);
      const read = () => {
        try {
          return readFileSync(file);
        } catch {
          return undefined;
        }
      };
      const found = await until(
        `${relPath} on ${side}`,
        async () => {
          const bytes = read();
          return predicate(bytes) ? { bytes } : undefined;
        },
        timeoutMs,
      );
      return found.bytes;
    },
    async pause() {
      await Promise.all(
        [a, b].map((s) => rest(s.side, 'POST', `/rest/system/pause?device=${other(s).deviceId}`)),
      );
      await until(
        'the link to drop',
        async () => ((await connected(a)) || (await connected(b)) ? undefined : true),
        30_000,
      );
    },
    async resume() {
      await Promise.all(
        [a, b].map((s) => rest(s.side, 'POST', `/rest/system/resume?device=${other(s).deviceId}`)),
      );
      await until(
        'the link to return',
        async () => ((await connected(a)) && (await connected(b)) ? true : undefined),
        30_000,
      );
    },
    stop,
  };

  try {
    // B listens before A dials it, so that A's first dial succeeds (the next try is 5 s later).
    for (const self of [b, a]) {
      start(self);
      await until(
        `${self.side}'s REST API`,
        async () => (await rest(self.side, 'GET', '/rest/system/ping')) && true,
        30_000,
      );
    }
    await pair.waitInSync(30_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return pair;
}
