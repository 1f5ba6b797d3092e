import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LibraryChanged } from '../../../src-shared/library-view';
import { LibraryCatalog } from '../../services/library/catalog/library-catalog';
import { LibraryHomes } from '../../services/library/catalog/library-home';

/** One studio data folder per test file: its catalogs outlive a catalog closed and opened again, as a restart's do. */
const homes = new LibraryHomes(mkdtempSync(join(tmpdir(), 'studio-catalog-home-')));

/** A catalog of the library at `root`, kept where a studio keeps it: in its data folder. */
export function testCatalog(
  root: () => string,
  onChange?: (change: LibraryChanged) => void,
  person?: ConstructorParameters<typeof LibraryCatalog>[2],
): LibraryCatalog {
  return new LibraryCatalog(root, onChange, person, (r) => homes.of(r));
}

/** Where the catalog of the library at `root` is. */
export function catalogFileOf(root: string): string {
  return homes.of(root).catalogFile;
}
