import { readFileSync } from 'node:fs';

/** A gateway user, identified by its API key. Balances are in the gateway's currency units. */
export interface SandboxAccount {
  key: string;
  name: string;
  balance: number;
  /** The group's platform: only `native` groups may call the native and batch endpoints. */
  platform: 'native' | 'openai';
  /** Whether the key's group allows batch image generation. */
  batch: boolean;
  groupMultiplier: number;
}

export interface SandboxModel {
  id: string;
  /** Executed version when the id is an alias; reported as `modelVersion`. */
  version?: string;
  /** Price of one image at 1K for batch work; absent means no batch pricing is configured. */
  batchPrice?: number;
  /** Whether batch execution resources exist for the model. */
  batchAccount: boolean;
  /** Price of one realtime image per tier. */
  realtimePrice: { '1K': number; '2K': number; '4K': number };
  extendedRatios: boolean;
}

export interface KbApp {
  id: string;
  kbIds: string[];
  systemPrompt: string;
}

export interface KbKey {
  key: string;
  kbIds: string[];
  apps: KbApp[];
}

export interface SandboxLimits {
  maxItems: number;
  maxOutputImages: number;
  maxOutputCount: number;
  maxPromptBytes: number;
  maxRefImageBytes: number;
  maxRefImagesPerJob: number;
  maxRefBytesPerJob: number;
  maxZipItems: number;
  maxMetadataKeys: number;
  maxBodyBytes: number;
  maxTaskNameChars: number;
  maxIdempotencyKeyBytes: number;
  downloadConcurrency: number;
  listDefault: number;
  listMax: number;
  itemsDefault: number;
  itemsMax: number;
  kbIndexTokens: number;
  kbQaTokens: number;
}

/** Phase lengths in gateway seconds; divided by the time scale to get real time. */
export interface SandboxTiming {
  queuedS: number;
  runningS: number;
  processingS: number;
  settlingS: number;
  /** How long a cancel of a batch already upstream takes to turn into `cancelled`. */
  cancelDelayS: number;
  /** Outputs turn `output_deleted` this long after settlement. */
  retentionS: number;
}

/** Where deployed gateways differ (gateway-notes.md); defaults follow the notes' first column. */
export interface SandboxVariant {
  createStatus: 200 | 202;
  itemSuccessWord: 'succeeded' | 'success';
}

export interface SandboxConfig {
  batchEnabled: boolean;
  accounts: SandboxAccount[];
  models: SandboxModel[];
  kb: KbKey[];
  limits: SandboxLimits;
  timing: SandboxTiming;
  variant: SandboxVariant;
  billing: { batchDiscount: number; holdMultiplier: number; accountMultiplier: number };
  /** Share of items that fail upstream even without injected faults. */
  itemFailureRate: number;
  /**
   * Repeat a rejected key in its errors, as some deployed gateways do ("API key sk-… is invalid"):
   * in the message as sent, URL-encoded, base64 and base64url, and in `x-debug-key` and `x-request-id`.
   */
  echoKeyInErrors: boolean;
  /** Deflate the entries of batch ZIPs, as zip tools do, instead of storing them. */
  deflateZips: boolean;
  /**
   * Write batch ZIPs as streaming writers do (Go's archive/zip): each entry's CRC and sizes in a
   * data descriptor after its data (bit 3), not in its local header.
   */
  zipDescriptors: boolean;
  /** Honour `Range: bytes=N-` on batch ZIP downloads (206), so a cut download can resume. */
  zipRanges: boolean;
  /**
   * Extra bytes of noise carried inside each batch image (a private PNG chunk, JPEG APP15 segments,
   * a WebP chunk), so a benchmark can have 4K-sized downloads from quick 1K renders. 0: none.
   */
  imagePaddingBytes: number;
}

const MiB = 1024 * 1024;

export const COMMON_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];
export const EXTENDED_RATIOS = ['1:4', '1:8', '4:1', '8:1'];

export function defaultConfig(): SandboxConfig {
  return {
    batchEnabled: true,
    accounts: [
      {
        key: 'sk-sandbox-alice',
        name: 'alice',
        balance: 100,
        platform: 'native',
        batch: true,
        groupMultiplier: 1,
      },
      {
        key: 'sk-sandbox-bob',
        name: 'bob',
        balance: 100,
        platform: 'native',
        batch: true,
        groupMultiplier: 1,
      },
      {
        key: 'sk-sandbox-nobatch',
        name: 'nobatch',
        balance: 100,
        platform: 'native',
        batch: false,
        groupMultiplier: 1,
      },
      {
        key: 'sk-sandbox-poor',
        name: 'poor',
        balance: 0.001,
        platform: 'native',
        batch: true,
        groupMultiplier: 1,
      },
    ],
    models: [
      {
        id: 'imgvendor-3.1-flash-image',
        version: 'imgvendor-3.1-flash-image-001',
        batchPrice: 0.039,
        batchAccount: true,
        realtimePrice: { '1K': 0.039, '2K': 0.039, '4K': 0.078 },
        extendedRatios: true,
      },
      {
        id: 'imgvendor-3.1-flash-image-preview',
        version: 'imgvendor-3.1-flash-image-001',
        batchPrice: 0.039,
        batchAccount: false,
        realtimePrice: { '1K': 0.039, '2K': 0.039, '4K': 0.078 },
        extendedRatios: true,
      },
      {
        id: 'imgvendor-3.1-flash-lite-image',
        batchAccount: true,
        realtimePrice: { '1K': 0.02, '2K': 0.02, '4K': 0.04 },
        extendedRatios: true,
      },
      {
        id: 'imgvendor-3-pro-image',
        batchPrice: 0.134,
        batchAccount: true,
        realtimePrice: { '1K': 0.134, '2K': 0.134, '4K': 0.24 },
        extendedRatios: false,
      },
      {
        id: 'imgvendor-3-pro-image-preview',
        version: 'imgvendor-3-pro-image',
        batchAccount: true,
        realtimePrice: { '1K': 0.134, '2K': 0.134, '4K': 0.24 },
        extendedRatios: false,
      },
    ],
    kb: [
      {
        key: 'kb-sandbox',
        kbIds: ['kb-docs', 'kb-styles'],
        apps: [
          {
            id: 'app-sandbox',
            kbIds: ['kb-docs', 'kb-styles'],
            systemPrompt: 'You are the house style assistant of a design team.',
          },
        ],
      },
    ],
    limits: {
      maxItems: 200,
      maxOutputImages: 200,
      maxOutputCount: 4,
      maxPromptBytes: 8000,
      maxRefImageBytes: 10 * MiB,
      maxRefImagesPerJob: 1000,
      maxRefBytesPerJob: 128 * MiB,
      maxZipItems: 200,
      maxMetadataKeys: 20,
      maxBodyBytes: 256 * MiB,
      maxTaskNameChars: 200,
      maxIdempotencyKeyBytes: 255,
      downloadConcurrency: 1,
      listDefault: 20,
      listMax: 100,
      itemsDefault: 100,
      itemsMax: 500,
      kbIndexTokens: 3000,
      kbQaTokens: 3300,
    },
    timing: {
      queuedS: 60,
      runningS: 150,
      processingS: 20,
      settlingS: 10,
      cancelDelayS: 15,
      retentionS: 72 * 3600,
    },
    variant: { createStatus: 200, itemSuccessWord: 'succeeded' },
    billing: { batchDiscount: 0.5, holdMultiplier: 0.6, accountMultiplier: 1 },
    itemFailureRate: 0.08,
    echoKeyInErrors: false,
    deflateZips: false,
    zipDescriptors: false,
    zipRanges: false,
    imagePaddingBytes: 0,
  };
}

export type ConfigOverrides = {
  [K in keyof SandboxConfig]?: SandboxConfig[K] extends unknown[]
    ? SandboxConfig[K]
    : SandboxConfig[K] extends object
      ? Partial<SandboxConfig[K]>
      : SandboxConfig[K];
};

/** Shallow-merges each section, so a config file or a test names only what it changes. */
export function resolveConfig(overrides: ConfigOverrides = {}): SandboxConfig {
  const base = defaultConfig();
  const merged = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const current = (base as unknown as Record<string, unknown>)[key];
    merged[key] =
      current && typeof current === 'object' && !Array.isArray(current) && typeof value === 'object'
        ? { ...current, ...value }
        : value;
  }
  return merged as unknown as SandboxConfig;
}

export function loadConfigFile(path: string): ConfigOverrides {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`${path}: a sandbox config file holds one JSON object`);
  }
  return parsed as ConfigOverrides;
}

export function findModel(config: SandboxConfig, id: string): SandboxModel | undefined {
  return config.models.find((m) => m.id === id);
}

/** Reference images per task by model family, as deployed gateways count them. */
export function referenceLimitFor(model: string): number {
  if (model.includes('flash-image')) return 3;
  if (model.includes('pro-image')) return 14;
  return 0;
}
