import { ScreenPlaceholder } from '../shell/ScreenPlaceholder';

export function RealtimeScreen() {
  return <ScreenPlaceholder screen="realtime" />;
}
