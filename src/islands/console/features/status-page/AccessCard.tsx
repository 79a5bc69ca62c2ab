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

const MODES: Array<{ mode: AccessMode; label: string; hint: string }> = [
  { mode: 'public', label: 'Everyone', hint: 'The page, its history, feeds, badges and JSON are public.' },
  { mode: 'password', label: 'Anyone with the password', hint: 'Visitors type a password; their browser keeps it for 12 hours.' },
  { mode: 'users', label: 'Signed-in members of this company', hint: 'Your users, signed in on this address.' },
  { mode: 'ip_allowlist', label: 'Visitors from these addresses', hint: 'Only from the IP ranges listed below.' },
];
const EXPIRIES = [
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '1 day' },
  { hours: 7 * 24, label: '7 days' },
  { hours: 30 * 24, label: '30 days' },
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
  const current = MODES.find((m) => m.mode === access.mode)!;
  return (
    <section className="sw-card sw-sp-access" aria-labelledby="sp-access-title">
      <header className="sw-card-head">
        <h3 id="sp-access-title">Access</h3>
      </header>
      {!mayEdit ? (
        <p>
          Who can see the status page: <strong>{current.label}</strong>
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
            <legend>Who can see the status page</legend>
            {MODES.map((m) => (
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
              <label htmlFor="sp-access-password">{access.has_password ? 'New page password' : 'Page password'}</label>
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
                {access.has_password ? 'Leave empty to keep the current password.' : 'At least 8 characters.'}
              </small>
            </div>
          )}
          {mode === 'ip_allowlist' && (
            <div className="sw-sp-access-field">
              <label htmlFor="sp-access-ips">Allowed addresses and ranges, one per line</label>
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
              {saving ? 'Saving…' : 'Save access'}
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
      <h4>Share links</h4>
      <p className="sw-muted">A share link lets one person see the page, whatever the access above, until it expires or you revoke it.</p>
      {p.mayEdit && (
        <form
          className="sw-sp-add"
          onSubmit={(e) => {
            e.preventDefault();
            void createShareLink(p.tenant, hours, label).then(() => setLabel(''));
          }}
        >
          <label htmlFor="sp-share-label">For</label>
          <input id="sp-share-label" value={label} maxLength={100} placeholder="e.g. Auditor" onChange={(e) => setLabel(e.target.value)} />
          <label htmlFor="sp-share-expiry">Valid for</label>
          <select id="sp-share-expiry" value={hours} onChange={(e) => setHours(Number(e.target.value))}>
            {EXPIRIES.map((x) => (
              <option key={x.hours} value={x.hours}>
                {x.label}
              </option>
            ))}
          </select>
          <button type="submit" className="sw-btn">
            Create link
          </button>
        </form>
      )}
      {newUrl && (
        <div className="sw-sp-access-field" role="status">
          <label htmlFor="sp-share-url">New link (copy it now: it is shown only once)</label>
          <input id="sp-share-url" readOnly value={newUrl} onFocus={(e) => e.target.select()} />
        </div>
      )}
      {links.status === 'error' && <p className="sw-banner sw-banner-error">{links.message}</p>}
      {links.status === 'ready' &&
        (links.data.length === 0 ? (
          <p className="sw-empty">No share links yet.</p>
        ) : (
          <ul className="sw-sp-share-list">
            {links.data.map((l) => (
              <li key={l.id} data-share={l.id}>
                <span>
                  <strong>{l.label ?? 'Unnamed link'}</strong>{' '}
                  <span className="sw-muted">
                    {l.state === 'active'
                      ? `expires ${when(l.expires_at)}`
                      : l.state === 'revoked'
                        ? 'revoked'
                        : `expired ${when(l.expires_at)}`}
                  </span>
                </span>
                {p.mayEdit && l.state === 'active' && (
                  <button type="button" className="sw-btn sw-btn-small" onClick={() => void revokeShareLink(p.tenant, l.id)}>
                    Revoke<span className="sw-visually-hidden"> {l.label ?? 'unnamed link'}</span>
                  </button>
                )}
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}
