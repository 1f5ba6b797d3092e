import { join } from 'node:path';
import { safeName } from '../../storage/file-names';
import { libraryIdentity } from '../folders/library-identity';

/**
 * What one studio keeps of a library in its own data folder, never in the shared folder: its
 * catalog and the perceptual hashes it made. Keyed by the library's id, so a library folder moved
 * or mounted elsewhere keeps its index, and two libraries never share one.
 */
export interface LibraryHome {
  libraryId: string;
  dir: string;
  catalogFile: string;
  /** This studio's hashes of one batch folder's images. */
  hashFileOf(folderName: string): string;
}

/** The homes of the libraries this studio opens, under `<dataDir>/libraries/<libraryId>/`. */
export class LibraryHomes {
  private known = new Map<string, LibraryHome>();

  constructor(private dataDir: string) {}

  /** The home of the library at `root`; its id is read (or made) once per folder and session. */
  of(root: string): LibraryHome {
    const known = this.known.get(root);
    if (known) return known;
    const { id } = libraryIdentity(root);
    const dir = join(this.dataDir, 'libraries', safeName(id, 80));
    const home: LibraryHome = {
      libraryId: id,
      dir,
      catalogFile: join(dir, 'catalog.sqlite'),
      hashFileOf: (folderName) => join(dir, 'hashes', `${safeName(folderName, 200)}.json`),
    };
    this.known.set(root, home);
    return home;
  }
}
