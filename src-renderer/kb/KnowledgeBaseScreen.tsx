import { useTranslation } from 'react-i18next';
import { KbPushSection } from './KbPushSection';
import { SearchSection } from './KbSearch';
import './kb.css';

export function KnowledgeBaseScreen() {
  const { t } = useTranslation();
  return (
    <section className="screen kb" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('kb.title')}</h1>
      <div className="kb-columns">
        <KbPushSection />
        <SearchSection />
      </div>
    </section>
  );
}
