import { ScreenPlaceholder } from '../shell/ScreenPlaceholder';

export function BatchesScreen() {
  return <ScreenPlaceholder screen="batches" />;
}
