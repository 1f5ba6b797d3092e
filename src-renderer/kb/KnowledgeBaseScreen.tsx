import { ScreenPlaceholder } from '../shell/ScreenPlaceholder';

export function KnowledgeBaseScreen() {
  return <ScreenPlaceholder screen="kb" />;
}
