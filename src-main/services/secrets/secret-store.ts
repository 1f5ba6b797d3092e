import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where API keys live. Only the main process holds one; nothing it returns reaches the renderer. */
export interface SecretStore {
  readonly kind: 'os-encrypted' | 'file-0600';
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  delete(name: string): void;
}

/**
 * Browser mode and tests: a JSON file readable by the owner only. Plain text on disk, which
 * Settings says plainly; the desktop app encrypts with the OS keychain instead.
 */
export class FileSecretStore implements SecretStore {
  readonly kind = 'file-0600' as const;
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'secrets.json');
  }

  private read(): Record<string, string> {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  }

  private write(values: Record<string, string>): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(values, null, 2), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }

  get(name: string): string | undefined {
    const value = this.read()[name];
    return typeof value === 'string' ? value : undefined;
  }

  set(name: string, value: string): void {
    this.write({ ...this.read(), [name]: value });
  }

  delete(name: string): void {
    const values = this.read();
    delete values[name];
    this.write(values);
  }
}

/** Replaces every known secret in a text, so keys never reach a log, a message or an error. */
export function redact(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('••••');
  }
  return out;
}
