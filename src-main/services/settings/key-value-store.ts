import { dirname } from 'node:path';
import { fsyncDirSync } from '../storage/atomic-file';

/**
 * The persistence the settings services need. electron-store (desktop) and conf (browser mode and
 * tests) both satisfy it, so services never know which one they run on.
 */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/**
 * A store whose every write is followed by a flush of its file's folder: conf and electron-store
 * rename the new file into place but leave the folder to the kernel, so after a power cut the
 * settings could be the old ones although the change was acknowledged.
 */
export function flushedStore<S extends KeyValueStore & { path: string }>(store: S): KeyValueStore {
  const flush = () => fsyncDirSync(dirname(store.path));
  return {
    get: (key) => store.get(key),
    set: (key, value) => {
      store.set(key, value);
      flush();
    },
    delete: (key) => {
      store.delete(key);
      flush();
    },
  };
}
