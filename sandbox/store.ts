import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxConfig } from './config';

export type BatchStatus =
  | 'queued'
  | 'running'
  | 'processing_results'
  | 'settling'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'output_deleted';

export const TERMINAL: ReadonlySet<BatchStatus> = new Set([
  'completed',
  'failed',
  'cancelled',
  'output_deleted',
]);

/** One expanded task: an item with output_count n becomes n of these. */
export interface TaskRecord {
  customId: string;
  prompt: string;
  /** Hashes of the reference thumbnails drawn on this task's image. */
  refs: string[];
  /** Decided at creation: what upstream will do with the task. */
  outcome: 'success' | 'failed';
  error?: { code: string; message: string; source: 'provider' | 'system' };
  outputIndex: number;
}

export interface BatchRecord {
  id: string;
  key: string;
  taskName: string;
  model: string;
  status: BatchStatus;
  responseMime: 'image/png' | 'image/jpeg' | 'image/webp';
  metadata?: Record<string, string>;
  parentBatchId?: string;
  tasks: TaskRecord[];
  estimatedCost: number;
  holdAmount: number;
  actualCost: number | null;
  createdAt: number;
  submittedAt: number;
  settledAt: number | null;
  /** Real ms when the current phase began; phases end by the scaled clock. */
  phaseStartedMs: number;
  cancelRequestedMs?: number;
  /** Tasks that had finished upstream when a cancel took effect. */
  finishedAtCancel?: number;
  renderDone: boolean;
  downloadedAt?: number;
  outputsExpireMs?: number;
  recordDeleted: boolean;
}

export interface AccountState {
  balance: number;
  held: number;
  holdsPlaced: number;
  holdsReleased: number;
  batchesCreated: number;
  realtimeImages: number;
}

/** A stored answer to a create, replayed for the same Idempotency-Key and body. */
export interface IdempotencyRecord {
  bodyHash: string;
  batchId?: string;
  status: number;
  error?: unknown;
}

export interface KbRecord {
  id: string;
  kbId: string;
  q: string;
  a: string;
  vector: number[];
  createdAt: number;
}

interface PersistedState {
  version: 1;
  accounts: Record<string, AccountState>;
  batches: BatchRecord[];
  idempotency: Record<string, Record<string, IdempotencyRecord>>;
  kb: KbRecord[];
}

/** Binary outputs: image files and reference thumbnails, in memory or under the data folder. */
export interface BlobStore {
  put(name: string, data: Buffer): void;
  get(name: string): Buffer | undefined;
  removePrefix(prefix: string): void;
}

class MemoryBlobs implements BlobStore {
  private blobs = new Map<string, Buffer>();
  put(name: string, data: Buffer): void {
    this.blobs.set(name, data);
  }
  get(name: string): Buffer | undefined {
    return this.blobs.get(name);
  }
  removePrefix(prefix: string): void {
    for (const key of [...this.blobs.keys()]) if (key.startsWith(prefix)) this.blobs.delete(key);
  }
}

class DiskBlobs implements BlobStore {
  constructor(private root: string) {
    mkdirSync(root, { recursive: true });
  }
  private path(name: string): string {
    // Names are built by the sandbox from its own ids and hashes, never from request text.
    return join(this.root, name);
  }
  put(name: string, data: Buffer): void {
    const target = this.path(name);
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(`${target}.tmp`, data);
    renameSync(`${target}.tmp`, target);
  }
  get(name: string): Buffer | undefined {
    try {
      return readFileSync(this.path(name));
    } catch {
      return undefined;
    }
  }
  removePrefix(prefix: string): void {
    rmSync(this.path(prefix), { recursive: true, force: true });
  }
}

export class SandboxStore {
  accounts = new Map<string, AccountState>();
  batches = new Map<string, BatchRecord>();
  idempotency = new Map<string, Map<string, IdempotencyRecord>>();
  kb: KbRecord[] = [];
  readonly blobs: BlobStore;
  private saveTimer?: NodeJS.Timeout;

  constructor(
    config: SandboxConfig,
    private dataDir?: string,
  ) {
    this.blobs = dataDir ? new DiskBlobs(join(dataDir, 'blobs')) : new MemoryBlobs();
    if (dataDir) this.load(dataDir);
    for (const account of config.accounts) {
      if (!this.accounts.has(account.key)) {
        this.accounts.set(account.key, {
          balance: account.balance,
          held: 0,
          holdsPlaced: 0,
          holdsReleased: 0,
          batchesCreated: 0,
          realtimeImages: 0,
        });
      }
    }
  }

  private load(dir: string): void {
    const file = join(dir, 'state.json');
    if (!existsSync(file)) return;
    const state = JSON.parse(readFileSync(file, 'utf8')) as PersistedState;
    this.accounts = new Map(Object.entries(state.accounts));
    this.batches = new Map(state.batches.map((b) => [b.id, b]));
    this.idempotency = new Map(
      Object.entries(state.idempotency).map(([k, v]) => [k, new Map(Object.entries(v))]),
    );
    this.kb = state.kb;
  }

  /** Persists soon; many changes in one tick are written once. */
  changed(): void {
    if (!this.dataDir || this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.flush(), 20);
  }

  flush(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (!this.dataDir) return;
    const state: PersistedState = {
      version: 1,
      accounts: Object.fromEntries(this.accounts),
      batches: [...this.batches.values()],
      idempotency: Object.fromEntries([...this.idempotency].map(([k, v]) => [k, Object.fromEntries(v)])),
      kb: this.kb,
    };
    mkdirSync(this.dataDir, { recursive: true });
    const file = join(this.dataDir, 'state.json');
    writeFileSync(`${file}.tmp`, JSON.stringify(state));
    renameSync(`${file}.tmp`, file);
  }

  account(key: string): AccountState {
    const account = this.accounts.get(key);
    if (!account) throw new Error('unknown account');
    return account;
  }

  idempotencyFor(key: string): Map<string, IdempotencyRecord> {
    let map = this.idempotency.get(key);
    if (!map) this.idempotency.set(key, (map = new Map()));
    return map;
  }
}
