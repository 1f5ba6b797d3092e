import { ScreenPlaceholder } from '../shell/ScreenPlaceholder';

export function ComposeScreen() {
  return <ScreenPlaceholder screen="compose" />;
}
