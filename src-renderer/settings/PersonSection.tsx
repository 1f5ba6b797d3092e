import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERSON_NAME_MAX, personNameSchema } from '../../src-shared/person';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';

/**
 * "You": the name a team sees beside this person's marks (a label, not a login), saved on blur or
 * Enter once it is a name; and, when this studio found its person id in use on another computer
 * (a copied data folder) and took a new one, that told in words.
 */
export function PersonSection() {
  const { t } = useTranslation();
  const id = useId();
  const settings = useStudioQuery('settings.get');
  const me = useStudioQuery('people.me');
  const update = useStudioMutation('settings.update', { invalidates: ['people.me'] });
  const saved = settings.data?.personName ?? '';
  const [name, setName] = useState(saved);
  // Kept as which problem, not its words: a change of language tells it again in the new one.
  const [problem, setProblem] = useState<'empty' | 'tooLong'>();
  const [done, setDone] = useState(false);
  useEffect(() => setName(saved), [saved]);
  // A new person id (this studio found its old one in use elsewhere) comes with its notice: asked again.
  const personId = settings.data?.personId;
  const refetchMe = me.refetch;
  useEffect(() => {
    if (personId) void refetchMe();
  }, [personId, refetchMe]);
  if (!settings.data) return null;

  function save() {
    const parsed = personNameSchema.safeParse(name);
    if (!parsed.success) {
      setDone(false);
      setProblem(name.trim() ? 'tooLong' : 'empty');
      return;
    }
    setProblem(undefined);
    setName(parsed.data);
    if (parsed.data === saved) return;
    update.mutate({ personName: parsed.data }, { onSuccess: () => setDone(true) });
  }

  const notice = me.data?.notice;
  return (
    <section className="settings-section" aria-labelledby={`${id}-you`} data-testid="settings-person">
      <h2 id={`${id}-you`}>{t('team.you')}</h2>
      <div className="field">
        <label htmlFor={`${id}-name`}>{t('team.name')}</label>
        <div className="field-row">
          <input
            id={`${id}-name`}
            value={name}
            maxLength={PERSON_NAME_MAX * 2}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${id}-name-help`}
            onChange={(e) => (setName(e.target.value), setDone(false))}
            onBlur={save}
            onKeyDown={(e) => e.key === 'Enter' && save()}
            data-testid="settings-person-name"
          />
          {done && !problem && (
            <span className="success" role="status">
              {t('team.nameSaved')}
            </span>
          )}
        </div>
        {problem && (
          <p className="error-text" role="alert" data-testid="settings-person-name-problem">
            {problem === 'empty' ? t('team.nameEmpty') : t('team.nameTooLong', { max: PERSON_NAME_MAX })}
          </p>
        )}
        <p className="help" id={`${id}-name-help`}>
          {t('team.nameHelp')}
        </p>
      </div>
      {notice && (
        <p className="notice" role="status" data-testid="settings-person-notice">
          {t('team.copiedNotice', { host: notice.host })}
        </p>
      )}
      {update.error && <ErrorNotice error={update.error} />}
    </section>
  );
}
