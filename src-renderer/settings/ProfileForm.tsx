import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile, ProfileInput } from '../../src-shared/profile';
import { useStudioMutation } from '../app/studio-queries';
import { ErrorNotice } from '../shell/ErrorNotice';

interface Props {
  profile?: Profile;
  onDone(): void;
}

/**
 * Keys are write-only: the form never shows a stored key, only whether one is set and its last
 * four characters. What was typed is cleared as soon as it is saved.
 */
export function ProfileForm({ profile, onDone }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const save = useStudioMutation('profiles.save');
  const sandbox = profile?.kind === 'sandbox';
  const [fields, setFields] = useState({
    name: profile?.name ?? '',
    baseUrl: profile?.baseUrl ?? '',
    kbBaseUrl: profile?.kind === 'gateway' && profile.kbBaseUrl !== profile.baseUrl ? profile.kbBaseUrl : '',
    defaultAppId: profile?.defaultAppId ?? '',
    defaultKbId: profile?.defaultKbId ?? '',
    // Typed as text; empty means no budget.
    monthlyBudget: profile?.monthlyBudget == null ? '' : String(profile.monthlyBudget),
  });
  const [keys, setKeys] = useState({ gatewayKey: '', kbKey: '' });
  const [removed, setRemoved] = useState({ gatewayKey: false, kbKey: false });

  const set = (name: keyof typeof fields) => (e: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [name]: e.target.value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    const { monthlyBudget, ...rest } = fields;
    const input: ProfileInput = {
      ...rest,
      id: profile?.id,
      monthlyBudget: monthlyBudget.trim() === '' ? null : Number(monthlyBudget),
    };
    for (const which of ['gatewayKey', 'kbKey'] as const) {
      if (keys[which]) input[which] = keys[which];
      else if (removed[which]) input[which] = '';
    }
    save.mutate(input, {
      onSuccess: () => {
        setKeys({ gatewayKey: '', kbKey: '' });
        onDone();
      },
      onSettled: () => setKeys({ gatewayKey: '', kbKey: '' }),
    });
  }

  const keyField = (which: 'gatewayKey' | 'kbKey') => {
    const status = profile?.[which];
    return (
      <div className="field">
        <label htmlFor={`${id}-${which}`}>{t(`settings.${which}`)}</label>
        <input
          id={`${id}-${which}`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={keys[which]}
          placeholder={status?.set ? t('settings.keyPlaceholderKeep') : t('settings.keyPlaceholderNew')}
          onChange={(e) => setKeys((k) => ({ ...k, [which]: e.target.value }))}
          data-testid={`profile-${which}`}
        />
        <p className="help">
          {status?.set && !removed[which]
            ? t('settings.keySet', { last4: status.last4 })
            : t('settings.keyNotSet')}
          {status?.set && !removed[which] && (
            <button
              type="button"
              className="link-button"
              onClick={() => setRemoved((r) => ({ ...r, [which]: true }))}
            >
              {t('settings.removeKey')}
            </button>
          )}
        </p>
      </div>
    );
  };

  return (
    <form
      className="profile-form card"
      onSubmit={submit}
      aria-label={profile ? t('settings.editProfile', { name: profile.name }) : t('settings.newProfile')}
    >
      <h3>{profile ? t('settings.editProfile', { name: profile.name }) : t('settings.newProfile')}</h3>
      <div className="field">
        <label htmlFor={`${id}-name`}>{t('settings.name')}</label>
        <input
          id={`${id}-name`}
          value={fields.name}
          onChange={set('name')}
          required
          maxLength={80}
          data-testid="profile-name"
        />
      </div>
      {!sandbox && (
        <>
          <div className="field">
            <label htmlFor={`${id}-base`}>{t('settings.baseUrl')}</label>
            <input
              id={`${id}-base`}
              type="url"
              value={fields.baseUrl}
              onChange={set('baseUrl')}
              required
              placeholder="https://"
              data-testid="profile-baseUrl"
            />
            <p className="help">{t('settings.baseUrlHelp')}</p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-kb`}>{t('settings.kbBaseUrl')}</label>
            <input
              id={`${id}-kb`}
              type="url"
              value={fields.kbBaseUrl}
              onChange={set('kbBaseUrl')}
              placeholder="https://"
            />
            <p className="help">{t('settings.kbBaseUrlHelp')}</p>
          </div>
        </>
      )}
      {keyField('gatewayKey')}
      {keyField('kbKey')}
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-app`}>{t('settings.defaultAppId')}</label>
          <input id={`${id}-app`} value={fields.defaultAppId} onChange={set('defaultAppId')} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-kbid`}>{t('settings.defaultKbId')}</label>
          <input id={`${id}-kbid`} value={fields.defaultKbId} onChange={set('defaultKbId')} />
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-budget`}>{t('spending.budget')}</label>
        <input
          id={`${id}-budget`}
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          value={fields.monthlyBudget}
          onChange={set('monthlyBudget')}
          data-testid="profile-monthlyBudget"
        />
        <p className="help">{t('spending.budgetHelp')}</p>
      </div>
      {save.error && <ErrorNotice error={save.error} />}
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending} data-testid="profile-save">
          {t('common.save')}
        </button>
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
