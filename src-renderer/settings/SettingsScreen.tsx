import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConnectionStatus } from '../../src-shared/connection';
import type { Profile } from '../../src-shared/profile';
import { StudioError } from '../../src-shared/studio-error';
import { useStudioMutation, useStudioQuery } from '../app/studio-queries';
import { confirmAction } from '../shell/confirm-store';
import { ErrorNotice } from '../shell/ErrorNotice';
import { AppearanceSelects } from '../shell/AppearanceSelects';
import { UpdateSettings } from '../updates/UpdateSettings';
import { PersonSection } from './PersonSection';
import { ProfileForm } from './ProfileForm';
import './settings.css';

function ProfileCard({ profile, active, onEdit }: { profile: Profile; active: boolean; onEdit(): void }) {
  const { t } = useTranslation();
  const activate = useStudioMutation('profiles.activate');
  const remove = useStudioMutation('profiles.delete');
  const test = useStudioMutation('profiles.test');
  const [result, setResult] = useState<ConnectionStatus>();
  const error = activate.error ?? remove.error ?? test.error;

  return (
    <li
      className={active ? 'card profile-card active' : 'card profile-card'}
      data-testid={`profile-${profile.id}`}
    >
      <div className="profile-head">
        <h3>{profile.name}</h3>
        {profile.kind === 'sandbox' && <span className="badge">{t('settings.builtIn')}</span>}
        {active && <span className="badge accent">{t('common.active')}</span>}
      </div>
      <p className="muted mono">
        {profile.kind === 'sandbox'
          ? t('settings.sandboxAddress', { url: profile.baseUrl })
          : profile.baseUrl}
      </p>
      <p className="muted">
        {t('settings.gatewayKey')}:{' '}
        {profile.gatewayKey.set
          ? t('settings.keySet', { last4: profile.gatewayKey.last4 })
          : t('settings.keyNotSet')}
        {' · '}
        {t('settings.kbKey')}:{' '}
        {profile.kbKey.set ? t('settings.keySet', { last4: profile.kbKey.last4 }) : t('settings.keyNotSet')}
      </p>
      <div className="actions">
        {!active && (
          <button type="button" className="primary" onClick={() => activate.mutate({ id: profile.id })}>
            {t('settings.activate')}
          </button>
        )}
        <button
          type="button"
          onClick={() => test.mutate({ id: profile.id }, { onSuccess: setResult })}
          disabled={test.isPending}
        >
          {test.isPending ? t('settings.testing') : t('settings.test')}
        </button>
        <button type="button" onClick={onEdit}>
          {t('common.edit')}
        </button>
        {profile.kind !== 'sandbox' && (
          <button
            type="button"
            className="danger"
            onClick={() =>
              void confirmAction(t('settings.deleteConfirm', { name: profile.name })).then(
                (yes) => yes && remove.mutate({ id: profile.id }),
              )
            }
          >
            {t('common.delete')}
          </button>
        )}
      </div>
      {result?.state === 'ok' && (
        <p className="success" role="status">
          {t('settings.testOk', { count: result.models.length })}
        </p>
      )}
      {result?.state === 'error' && result.error && <ErrorNotice error={result.error} />}
      {error && <ErrorNotice error={StudioError.from(error).toView()} />}
    </li>
  );
}

function StorageSection() {
  const { t } = useTranslation();
  const id = useId();
  const settings = useStudioQuery('settings.get');
  const info = useStudioQuery('app.info');
  const update = useStudioMutation('settings.update');
  const pick = useStudioMutation('dialog.pickFolder');
  const [libraryDir, setLibraryDir] = useState('');
  useEffect(() => setLibraryDir(settings.data?.libraryDir ?? ''), [settings.data?.libraryDir]);
  if (!settings.data) return null;

  return (
    <section className="settings-section" aria-labelledby={`${id}-storage`}>
      <h2 id={`${id}-storage`}>{t('settings.storage')}</h2>
      <div className="field">
        <label htmlFor={`${id}-lib`}>{t('settings.libraryDir')}</label>
        <div className="field-row">
          <input
            id={`${id}-lib`}
            value={libraryDir}
            onChange={(e) => setLibraryDir(e.target.value)}
            onBlur={() =>
              libraryDir && libraryDir !== settings.data?.libraryDir && update.mutate({ libraryDir })
            }
            className="mono grow"
          />
          {info.data?.host === 'desktop' && (
            <button
              type="button"
              onClick={() =>
                pick.mutate(
                  { title: t('settings.libraryDir') },
                  { onSuccess: (dir) => dir && update.mutate({ libraryDir: dir }) },
                )
              }
            >
              {t('settings.chooseFolder')}
            </button>
          )}
        </div>
        <p className="help">{t('settings.libraryDirHelp')}</p>
      </div>
      <label className="check">
        <input
          type="checkbox"
          checked={settings.data.autoDownload}
          onChange={(e) => update.mutate({ autoDownload: e.target.checked })}
        />
        {t('settings.autoDownload')}
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={settings.data.notifications}
          onChange={(e) => update.mutate({ notifications: e.target.checked })}
        />
        {t('settings.notifications')}
      </label>
      {update.error && <ErrorNotice error={update.error} />}
    </section>
  );
}

export function SettingsScreen() {
  const { t } = useTranslation();
  const id = useId();
  const settings = useStudioQuery('settings.get');
  const profiles = useStudioQuery('profiles.list');
  const info = useStudioQuery('app.info');
  const [editing, setEditing] = useState<string | 'new' | undefined>();

  return (
    <section className="screen settings" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('settings.title')}</h1>

      <section className="settings-section" aria-labelledby={`${id}-appearance`}>
        <h2 id={`${id}-appearance`}>{t('settings.appearance')}</h2>
        <div className="field-row">
          <AppearanceSelects className="field" />
        </div>
      </section>

      <PersonSection />

      <section className="settings-section" aria-labelledby={`${id}-profiles`}>
        <div className="section-head">
          <h2 id={`${id}-profiles`}>{t('settings.profiles')}</h2>
          <button
            type="button"
            className="primary"
            onClick={() => setEditing('new')}
            data-testid="add-profile"
          >
            {t('settings.addProfile')}
          </button>
        </div>
        <p className="help">{t('settings.profilesHelp')}</p>
        <p className="notice" data-testid="secret-storage-notice">
          {info.data?.secretStorage === 'os-encrypted'
            ? t('settings.secretsOs')
            : t('settings.secretsFile', { path: info.data ? `${info.data.dataDir}/secrets.json` : '' })}
        </p>
        {editing === 'new' && <ProfileForm onDone={() => setEditing(undefined)} />}
        <ul className="profile-list">
          {profiles.data?.map((profile) =>
            editing === profile.id ? (
              <li key={profile.id}>
                <ProfileForm profile={profile} onDone={() => setEditing(undefined)} />
              </li>
            ) : (
              <ProfileCard
                key={profile.id}
                profile={profile}
                active={settings.data?.activeProfileId === profile.id}
                onEdit={() => setEditing(profile.id)}
              />
            ),
          )}
        </ul>
      </section>

      <StorageSection />

      <UpdateSettings />

      <section className="settings-section" aria-labelledby={`${id}-about`}>
        <h2 id={`${id}-about`}>{t('settings.about')}</h2>
        {info.data && (
          <>
            <p>{t('settings.version', { version: info.data.version })}</p>
            <p className="muted mono">{t('settings.dataDir', { path: info.data.dataDir })}</p>
          </>
        )}
      </section>
    </section>
  );
}
