/**
 * The persistence the settings services need. electron-store (desktop) and conf (browser mode and
 * tests) both satisfy it, so services never know which one they run on.
 */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}
