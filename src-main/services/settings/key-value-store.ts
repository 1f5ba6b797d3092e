/**
 * The persistence the settings services need. electron-store (desktop) and conf (browser mode and
 * tests) both satisfy it, so services never know which one they run on.
 */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** For tests that need no disk. */
export class MemoryKeyValueStore implements KeyValueStore {
  private values = new Map<string, unknown>();
  get(key: string): unknown {
    return structuredClone(this.values.get(key));
  }
  set(key: string, value: unknown): void {
    this.values.set(key, structuredClone(value));
  }
  delete(key: string): void {
    this.values.delete(key);
  }
}
