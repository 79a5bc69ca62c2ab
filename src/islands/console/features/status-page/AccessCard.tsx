// The "Access" section of /monitors/status-page: who can see the public page, its documents and
// feeds (everyone, a password, the company's signed-in users, or IP ranges), and share links
// for one viewer. Company admins change it; viewers read it.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import {
  $accessAlert,
  $accessSaving,
  $newShareUrl,
  $shareLinks,
  type AccessMode,
  createShareLink,
  loadShareLinks,
  type PageAccess,
  revokeShareLink,
  saveAccess,
} from './access-store.ts';
import { fmtTime } from '../../ui/format.ts';
import { t, tr } from '../../i18n.ts';

// Functions, not constants: the labels are read in the console's language at each render.
const MODES = (): Array<{ mode: AccessMode; label: string; hint: string }> => [
  { mode: 'public', label: t('statusPage.access.mode.public.label'), hint: t('statusPage.access.mode.public.hint') },
  { mode: 'password', label: t('statusPage.access.mode.password.label'), hint: t('statusPage.access.mode.password.hint') },
  { mode: 'users', label: t('statusPage.access.mode.users.label'), hint: t('statusPage.access.mode.users.hint') },
  { mode: 'ip_allowlist', label: t('statusPage.access.mode.ipAllowlist.label'), hint: t('statusPage.access.mode.ipAllowlist.hint') },
];
const EXPIRIES = () => [
  { hours: 1, label: t('statusPage.access.expiry.hours', { count: 1 }) },
  { hours: 24, label: t('statusPage.access.expiry.days', { count: 1 }) },
  { hours: 7 * 24, label: t('statusPage.access.expiry.days', { count: 7 }) },
  { hours: 30 * 24, label: t('statusPage.access.expiry.days', { count: 30 }) },
];
const when = (iso: string) => fmtTime(iso, '—');

export function AccessCard(p: { access: PageAccess; tenant: string | null; mayEdit: boolean; onSaved: (a: PageAccess) => void }) {
  const { access, tenant, mayEdit } = p;
  const alert = useStore($accessAlert);
  const saving = useStore($accessSaving);
  const [mode, setMode] = useState<AccessMode>(access.mode);
  const [password, setPassword] = useState('');
  const [ipText, setIpText] = useState(access.ip_allowlist.join('\n'));
  useEffect(() => {
    setMode(access.mode);
    setIpText(access.ip_allowlist.join('\n'));
    setPassword('');
  }, [access]);
  useEffect(() => {
    $accessAlert.set(null);
    $newShareUrl.set(null);
    void loadShareLinks(tenant);
  }, [tenant]);
  const current = MODES().find((m) => m.mode === access.mode)!;
  return (
    <section className="sw-card sw-sp-access" aria-labelledby="sp-access-title">
      <header className="sw-card-head">
        <h3 id="sp-access-title">{t('statusPage.access.title')}</h3>
      </header>
      {!mayEdit ? (
        <p>
          {tr('statusPage.access.current', { mode: current.label, strong: (chunks) => <strong>{chunks}</strong> })}
          {access.mode === 'ip_allowlist' && ` (${access.ip_allowlist.join(', ')})`}
        </p>
      ) : (
        <form
          className="sw-sp-access-form"
          onSubmit={(e) => {
            e.preventDefault();
            void saveAccess(tenant, { mode, password, ipText }, p.onSaved);
          }}
        >
          <fieldset className="sw-fieldset">
            <legend>{t('statusPage.access.legend')}</legend>
            {MODES().map((m) => (
              <label key={m.mode} className="sw-check">
                <input type="radio" name="sp-access-mode" value={m.mode} checked={mode === m.mode} onChange={() => setMode(m.mode)} />
                <span>
                  {m.label}
                  <small className="sw-hint"> {m.hint}</small>
                </span>
              </label>
            ))}
          </fieldset>
          {mode === 'password' && (
            <div className="sw-sp-access-field">
              <label htmlFor="sp-access-password">
                {access.has_password ? t('statusPage.access.newPassword') : t('statusPage.access.password')}
              </label>
              <input
                id="sp-access-password"
                type="password"
                autoComplete="new-password"
                value={password}
                minLength={8}
                maxLength={200}
                aria-describedby="sp-access-password-hint"
                onChange={(e) => setPassword(e.target.value)}
              />
              <small id="sp-access-password-hint" className="sw-hint">
                {access.has_password ? t('statusPage.access.keepPassword') : t('statusPage.access.passwordMin')}
              </small>
            </div>
          )}
          {mode === 'ip_allowlist' && (
            <div className="sw-sp-access-field">
              <label htmlFor="sp-access-ips">{t('statusPage.access.ips')}</label>
              <textarea
                id="sp-access-ips"
                rows={4}
                value={ipText}
                placeholder={'203.0.113.0/24\n2001:db8::/32'}
                onChange={(e) => setIpText(e.target.value)}
              />
            </div>
          )}
          <div className="sw-actions">
            <button type="submit" className="sw-btn sw-btn-primary" disabled={saving}>
              {saving ? t('statusPage.access.saving') : t('statusPage.access.save')}
            </button>
          </div>
        </form>
      )}
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      <ShareLinks tenant={tenant} mayEdit={mayEdit} />
    </section>
  );
}

function ShareLinks(p: { tenant: string | null; mayEdit: boolean }) {
  const links = useStore($shareLinks);
  const newUrl = useStore($newShareUrl);
  const [hours, setHours] = useState(24);
  const [label, setLabel] = useState('');
  return (
    <div className="sw-sp-share">
      <h4>{t('statusPage.share.title')}</h4>
      <p className="sw-muted">{t('statusPage.share.intro')}</p>
      {p.mayEdit && (
        <form
          className="sw-sp-add"
          onSubmit={(e) => {
            e.preventDefault();
            void createShareLink(p.tenant, hours, label).then(() => setLabel(''));
          }}
        >
          <label htmlFor="sp-share-label">{t('statusPage.share.for')}</label>
          <input
            id="sp-share-label"
            value={label}
            maxLength={100}
            placeholder={t('statusPage.share.forPlaceholder')}
            onChange={(e) => setLabel(e.target.value)}
          />
          <label htmlFor="sp-share-expiry">{t('statusPage.share.validFor')}</label>
          <select id="sp-share-expiry" value={hours} onChange={(e) => setHours(Number(e.target.value))}>
            {EXPIRIES().map((x) => (
              <option key={x.hours} value={x.hours}>
                {x.label}
              </option>
            ))}
          </select>
          <button type="submit" className="sw-btn">
            {t('statusPage.share.create')}
          </button>
        </form>
      )}
      {newUrl && (
        <div className="sw-sp-access-field" role="status">
          <label htmlFor="sp-share-url">{t('statusPage.share.newLink')}</label>
          <input id="sp-share-url" readOnly value={newUrl} onFocus={(e) => e.target.select()} />
        </div>
      )}
      {links.status === 'error' && <p className="sw-banner sw-banner-error">{links.message}</p>}
      {links.status === 'ready' &&
        (links.data.length === 0 ? (
          <p className="sw-empty">{t('statusPage.share.empty')}</p>
        ) : (
          <ul className="sw-sp-share-list">
            {links.data.map((l) => (
              <li key={l.id} data-share={l.id}>
                <span>
                  <strong>{l.label ?? t('statusPage.share.unnamed')}</strong>{' '}
                  <span className="sw-muted">
                    {l.state === 'active'
                      ? t('statusPage.share.expires', { when: when(l.expires_at) })
                      : l.state === 'revoked'
                        ? t('statusPage.share.revoked')
                        : t('statusPage.share.expired', { when: when(l.expires_at) })}
                  </span>
                </span>
                {p.mayEdit && l.state === 'active' && (
                  <button type="button" className="sw-btn sw-btn-small" onClick={() => void revokeShareLink(p.tenant, l.id)}>
                    {t('statusPage.share.revoke')}
                    <span className="sw-visually-hidden"> {l.label ?? t('statusPage.share.unnamedLower')}</span>
                  </button>
                )}
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}
