import { ScreenPlaceholder } from '../shell/ScreenPlaceholder';

export function LibraryScreen() {
  return <ScreenPlaceholder screen="library" />;
}
