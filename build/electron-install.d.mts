export declare const FETCH_ELECTRON_LATER: string;

export interface InstallLimits {
  connectMs?: number;
  stallMs?: number;
  totalMs?: number;
  extractMs?: number;
}

/** Downloads and installs Electron's binary with a progress line and time limits; never throws. */
export declare function installElectron(options?: {
  root?: string;
  out?: NodeJS.WritableStream & { isTTY?: boolean };
  limits?: InstallLimits;
}): Promise<{ ok: true } | { ok: false; reason: string }>;
