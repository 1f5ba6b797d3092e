import { safeStorage } from 'electron';
import type { SecretStore } from '../services/secrets/secret-store';
import type { KeyValueStore } from '../services/settings/key-value-store';
import { logCaught } from '../services/log/studio-log';

/** Desktop keys, encrypted by the OS keychain through safeStorage; only ciphertext reaches disk. */
export class SafeStorageSecretStore implements SecretStore {
  readonly kind = 'os-encrypted' as const;

  constructor(private store: KeyValueStore) {}

  private all(): Record<string, string> {
    const value = this.store.get('secrets');
    return value && typeof value === 'object' ? (value as Record<string, string>) : {};
  }

  get(name: string): string | undefined {
    const sealed = this.all()[name];
    if (!sealed) return undefined;
    try {
      return safeStorage.decryptString(Buffer.from(sealed, 'base64'));
    } catch (err) {
      // A key sealed under another OS account cannot be read; it counts as not set.
      logCaught(`sealed key ${name}`, err);
      return undefined;
    }
  }

  set(name: string, value: string): void {
    this.store.set('secrets', { ...this.all(), [name]: safeStorage.encryptString(value).toString('base64') });
  }

  delete(name: string): void {
    const all = this.all();
    delete all[name];
    this.store.set('secrets', all);
  }
}

/** safeStorage on Linux without a keyring falls back to a fixed password: no better than a 0600 file. */
export function osEncryptionUsable(): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend?.() : undefined;
  return backend !== 'basic_text';
}
