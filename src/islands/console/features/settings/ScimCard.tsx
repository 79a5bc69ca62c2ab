// SCIM provisioning on the company's Settings screen (company admins): the base URL and the
// bearer token to give Okta or Entra ID (the token is shown once; a new one replaces the old),
// revoking it, and the groups whose members are admins and viewers.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Field } from '../../ui/Field.tsx';
import { t } from '../../i18n.ts';
import { Confirm, Modal } from '../../ui/Modal.tsx';
import { Skeleton } from '../../ui/Card.tsx';
import { fmtTime } from '../../ui/format.ts';
import { $scim, $scimAlert, createScimToken, loadScim, revokeScimToken, saveRoleGroups, type ScimSettings } from './scim-store.ts';

export function ScimCard() {
  const scim = useStore($scim);
  const alert = useStore($scimAlert);
  const [confirmNew, setConfirmNew] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  useEffect(() => {
    $scimAlert.set(null);
    void loadScim();
  }, []);
  async function make() {
    setConfirmNew(false);
    $scimAlert.set(null);
    const r = await createScimToken();
    if ('token' in r) setSecret(r.token);
    else $scimAlert.set({ ok: false, text: r.error });
  }
  const data = scim.status === 'ready' ? scim.data : null;
  return (
    <section className="sw-card sw-settings" aria-labelledby="settings-scim">
      <header className="sw-card-head sw-row-between">
        <h3 id="settings-scim">{t('settings.scim.title')}</h3>
        {data?.available && (
          <button type="button" className="sw-btn sw-btn-primary" onClick={() => (data.token ? setConfirmNew(true) : void make())}>
            {data.token ? t('settings.scim.newToken') : t('settings.scim.createToken')}
          </button>
        )}
      </header>
      <div className="sw-card-body">
        <p className="sw-muted sw-small">{t('settings.scim.intro')}</p>
        {alert && (
          <div className={`sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
            {alert.text}
          </div>
        )}
        {scim.status === 'loading' && <Skeleton rows={2} />}
        {scim.status === 'error' && (
          <div className="sw-banner sw-banner-error" role="alert">
            {scim.message}
          </div>
        )}
        {data && !data.available && (
          <p className="sw-banner sw-banner-info" role="status">
            {t('settings.scim.enterpriseOnly')}
          </p>
        )}
        {data?.available && <ScimDetails data={data} onRevoke={() => setRevoking(true)} />}
      </div>
      {secret && (
        <Modal title={t('settings.scim.created')} onClose={() => setSecret(null)}>
          <div className="sw-form">
            <p>{t('settings.scim.copyNow')}</p>
            <code className="sw-secret sw-secret-wrap" data-testid="new-scim-token">
              {secret}
            </code>
            <div className="sw-modal-actions">
              <button type="button" className="sw-btn" onClick={() => void navigator.clipboard?.writeText(secret).catch(() => undefined)}>
                {t('settings.scim.copy')}
              </button>
              <button type="button" className="sw-btn sw-btn-primary" onClick={() => setSecret(null)}>
                {t('settings.scim.done')}
              </button>
            </div>
          </div>
        </Modal>
      )}
      {confirmNew && (
        <Confirm
          title={t('settings.scim.newTitle')}
          confirmLabel={t('settings.scim.createNew')}
          text={t('settings.scim.newText')}
          onCancel={() => setConfirmNew(false)}
          onConfirm={() => void make()}
        />
      )}
      {revoking && (
        <Confirm
          title={t('settings.scim.revokeTitle')}
          danger
          confirmLabel={t('settings.scim.revoke')}
          text={t('settings.scim.revokeText')}
          onCancel={() => setRevoking(false)}
          onConfirm={() => {
            setRevoking(false);
            void revokeScimToken();
          }}
        />
      )}
    </section>
  );
}

function ScimDetails({ data, onRevoke }: { data: ScimSettings; onRevoke: () => void }) {
  return (
    <>
      <dl className="sw-scim-facts">
        <dt>{t('settings.scim.baseUrl')}</dt>
        <dd>
          <code data-testid="scim-base-url">{data.base_url}</code>
        </dd>
        <dt>{t('settings.scim.token')}</dt>
        <dd>
          {data.token ? (
            <>
              <code>{data.token.prefix}…</code>{' '}
              <span className="sw-muted sw-small">
                {t('settings.scim.tokenUse', {
                  created: fmtTime(data.token.created_at, ''),
                  lastUsed: fmtTime(data.token.last_used_at, t('settings.scim.never')),
                })}
              </span>{' '}
              <button type="button" className="sw-btn sw-btn-small sw-btn-danger" onClick={onRevoke}>
                {t('settings.scim.revoke')}
              </button>
            </>
          ) : (
            <span className="sw-muted">{t('settings.scim.noneYet')}</span>
          )}
        </dd>
      </dl>
      <RoleGroups key={`${data.admin_group}|${data.viewer_group}`} data={data} />
    </>
  );
}

function RoleGroups({ data }: { data: ScimSettings }) {
  const [admin, setAdmin] = useState(data.admin_group ?? '');
  const [viewer, setViewer] = useState(data.viewer_group ?? '');
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    await saveRoleGroups(admin, viewer);
    setBusy(false);
  }
  return (
    <form className="sw-form" onSubmit={submit} noValidate>
      <p className="sw-muted sw-small">{t('settings.scim.groupsIntro')}</p>
      <Field id="scim-admin-group" label={t('settings.scim.adminGroup')}>
        <input id="scim-admin-group" type="text" maxLength={200} value={admin} onChange={(e) => setAdmin(e.target.value)} />
      </Field>
      <Field id="scim-viewer-group" label={t('settings.scim.viewerGroup')}>
        <input id="scim-viewer-group" type="text" maxLength={200} value={viewer} onChange={(e) => setViewer(e.target.value)} />
      </Field>
      <div className="sw-modal-actions">
        <button type="submit" className="sw-btn" disabled={busy}>
          {t('settings.scim.saveGroups')}
        </button>
      </div>
    </form>
  );
}
