// /settings/account: the signed-in user's own credentials. Two-factor sign-in (enrol with a QR
// code, confirm with a first code, recovery codes shown once, turn off with a code or the
// password), API tokens (create: the token shown once with a copy button; list; revoke), and
// the password, and the active sessions with 'sign out other sessions'. Every role has it: a token or a second factor belongs to the person.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Card, LoadView } from '../../ui/Card.tsx';
import { Confirm } from '../../ui/Modal.tsx';
import { Field } from '../../ui/Field.tsx';
import { fmtTime } from '../../ui/format.ts';
import {
  $sessions,
  $tokens,
  $twoFactor,
  changePassword,
  confirmEnrolment,
  createToken,
  disableTwoFactor,
  loadSessions,
  loadTokens,
  loadTwoFactor,
  revokeToken,
  signOutOthers,
  startEnrolment,
  type ApiToken,
  type Enrolment,
} from './store.ts';
import { AppearanceCard } from './AppearanceCard.tsx';
import './account.css';

export function AccountPage({ title }: { title: string }) {
  useEffect(() => {
    void loadTwoFactor();
    void loadTokens();
    void loadSessions();
  }, []);
  return (
    <div className="sw-admin sw-account">
      <h2 className="sw-page-title">{title}</h2>
      <TwoFactorCard />
      <TokensCard />
      <PasswordCard />
      <SessionsCard />
      <AppearanceCard />
    </div>
  );
}

/**
 * A secret shown once, with a button that copies it. A read-only textarea, not an input: the
 * whole value wraps into view (an input scrolled it sideways) and its lines are tall enough for
 * the underscores, which a one-line input cut off at 100 % zoom.
 */
function CopyValue({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="sw-copy">
      <label htmlFor={id}>{label}</label>
      <div className="sw-copy-row">
        <textarea
          id={id}
          readOnly
          rows={2}
          value={value}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
          className="sw-mono sw-secret-field"
        />
        <button
          type="button"
          className="sw-btn sw-btn-small"
          onClick={() =>
            void navigator.clipboard?.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}

function Banner({ ok, text }: { ok: boolean; text: string | null }) {
  if (!text) return null;
  return (
    <p className={`sw-banner ${ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role={ok ? 'status' : 'alert'}>
      {text}
    </p>
  );
}

function TwoFactorCard() {
  const status = useStore($twoFactor);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function start() {
    setBusy(true);
    setError(null);
    const r = await startEnrolment();
    setBusy(false);
    if (r.ok) setEnrolment(r.data);
    else setError(r.text);
  }
  return (
    <Card title="Two-factor sign-in" testId="two-factor">
      <Banner ok={false} text={error} />
      {recovery ? (
        <RecoveryCodes codes={recovery} onDone={() => setRecovery(null)} />
      ) : enrolment ? (
        <EnrolForm
          enrolment={enrolment}
          onCancel={() => setEnrolment(null)}
          onEnabled={(codes) => {
            setEnrolment(null);
            setRecovery(codes);
          }}
        />
      ) : (
        <LoadView load={status} isEmpty={() => false} empty="" rows={1}>
          {(s) =>
            s.enabled ? (
              <>
                <p>
                  <span className="sw-pill sw-green">On</span> Signing in asks for a code from your authenticator app after the password.{' '}
                  {s.recovery_codes_left} of 10 recovery codes left.
                </p>
                <DisableForm />
              </>
            ) : (
              <>
                <p>
                  <span className="sw-pill sw-grey">Off</span> Add a second step to signing in: a 6-digit code from an authenticator app
                  (Google Authenticator, 1Password, Authy, …).
                </p>
                <button type="button" className="sw-btn sw-btn-primary" disabled={busy} onClick={() => void start()}>
                  Set up two-factor sign-in
                </button>
              </>
            )
          }
        </LoadView>
      )}
    </Card>
  );
}

function EnrolForm(props: { enrolment: Enrolment; onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) return setError('Enter the 6-digit code your app shows.');
    setBusy(true);
    const r = await confirmEnrolment(code);
    setBusy(false);
    if (r.ok) props.onEnabled(r.data);
    else setError(r.fields.code ?? r.text);
  }
  return (
    <form className="sw-form sw-enrol" onSubmit={submit} noValidate>
      <ol className="sw-steps">
        <li>
          Scan this QR code with your authenticator app.
          {/* an image, not markup: the SVG from the server cannot add anything to the page */}
          <img
            className="sw-qr"
            alt="QR code of your authenticator key"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(props.enrolment.qr_svg)}`}
          />
        </li>
        <li>
          <CopyValue id="totp-secret" label="Or type this key into the app" value={props.enrolment.secret} />
        </li>
        <li>
          <Field id="totp-confirm" label="Code from the app" required error={error ?? undefined}>
            <input
              id="totp-confirm"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={8}
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                setError(null);
              }}
            />
          </Field>
        </li>
      </ol>
      <div className="sw-modal-actions">
        <button type="button" className="sw-btn" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          Turn on
        </button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="sw-recovery" data-testid="recovery-codes">
      <p className="sw-banner sw-banner-ok" role="status">
        Two-factor sign-in is on. Save these recovery codes somewhere safe: each signs you in once if you lose your phone. They are shown
        only now.
      </p>
      <ul className="sw-recovery-list sw-mono">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <CopyValue id="recovery-all" label="All codes" value={codes.join(' ')} />
      <button type="button" className="sw-btn sw-btn-primary" onClick={onDone}>
        I have saved them
      </button>
    </div>
  );
}

function DisableForm() {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!open)
    return (
      <button type="button" className="sw-btn sw-btn-danger" onClick={() => setOpen(true)}>
        Turn off two-factor sign-in
      </button>
    );
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim() && !password) return setError('Enter a current code or your password.');
    setBusy(true);
    const r = await disableTwoFactor(code.trim() ? { code: code.trim() } : { password });
    setBusy(false);
    if (!r.ok) setError(r.text);
  }
  return (
    <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
      <Banner ok={false} text={error} />
      <p className="sw-span-2 sw-muted">Confirm with a current code from your app, or with your password.</p>
      <Field id="off-code" label="Code from the app">
        <input
          id="off-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <Field id="off-password" label="Or your password">
        <input
          id="off-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <div className="sw-modal-actions sw-span-2">
        <button type="button" className="sw-btn" onClick={() => setOpen(false)}>
          Cancel
        </button>
        <button type="submit" className="sw-btn sw-btn-danger" disabled={busy}>
          Turn off
        </button>
      </div>
    </form>
  );
}

function TokensCard() {
  const tokens = useStore($tokens);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <Card title="API tokens" testId="api-tokens">
      <p className="sw-muted">
        For scripts and tools: send <code>Authorization: Bearer &lt;token&gt;</code> to this address's <code>/api/v1</code>. A token acts as
        you, with your role; a read-only token may only read.
      </p>
      <Banner ok={alert?.ok ?? false} text={alert?.text ?? null} />
      {created && (
        <div className="sw-token-once" data-testid="new-token">
          <p className="sw-banner sw-banner-ok" role="status">
            Token “{created.name}” created. Copy it now: it is not shown again.
          </p>
          <CopyValue id="new-token" label="Your new token" value={created.token} />
          <button type="button" className="sw-btn sw-btn-small" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <CreateTokenForm
        onCreated={(name, token) => {
          setAlert(null);
          setCreated({ name, token });
        }}
      />
      <LoadView load={tokens} isEmpty={(d) => d.length === 0} empty="No API tokens yet." rows={2}>
        {(list) => (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a narrow screen scrolls the table; the keyboard must reach it
          <section className="sw-table-wrap" tabIndex={0} aria-label="API tokens list">
            <table className="sw-table" aria-label="API tokens">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Scope</th>
                  <th scope="col">Token</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.map((t) => (
                  <tr key={t.id}>
                    <td>{t.name}</td>
                    <td>{t.scope === 'read' ? 'Read only' : 'Read and write'}</td>
                    <td className="sw-mono">{t.prefix}…</td>
                    <td>{fmtTime(t.created_at, '')}</td>
                    <td>{t.expired ? <span className="sw-pill sw-red">Expired</span> : fmtTime(t.expires_at, 'Never')}</td>
                    <td>{fmtTime(t.last_used_at, 'Never')}</td>
                    <td>
                      <button
                        type="button"
                        className="sw-btn sw-btn-small sw-btn-danger"
                        aria-label={`Revoke ${t.name}`}
                        onClick={() => setRevoking(t)}
                      >
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </LoadView>
      {revoking && (
        <Confirm
          title="Revoke API token"
          danger
          confirmLabel="Revoke"
          text={`Revoke “${revoking.name}”? Scripts using it stop working at once.`}
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            const t = revoking;
            setRevoking(null);
            void revokeToken(t.id).then((r) =>
              setAlert(r.ok ? { ok: true, text: `Token “${t.name}” revoked.` } : { ok: false, text: r.text }),
            );
          }}
        />
      )}
    </Card>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (name: string, token: string) => void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'read' | 'write'>('read');
  const [expiresOn, setExpiresOn] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setFailure(null);
    if (!name.trim()) return setErrors({ name: 'Name is required' });
    setBusy(true);
    const r = await createToken({ name, scope, expiresOn });
    setBusy(false);
    if (r.ok) {
      onCreated(r.data.name, r.data.token);
      setName('');
      setExpiresOn('');
    } else {
      setErrors(r.fields);
      setFailure(r.text);
    }
  }
  return (
    <form className="sw-form sw-token-form" onSubmit={submit} noValidate aria-label="Create an API token">
      <Banner ok={false} text={failure} />
      <Field id="token-name" label="Name" required error={errors.name}>
        <input id="token-name" value={name} maxLength={100} placeholder="e.g. CI deploys" onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field id="token-scope" label="Scope" required>
        <select id="token-scope" value={scope} onChange={(e) => setScope(e.target.value as 'read' | 'write')}>
          <option value="read">Read only</option>
          <option value="write">Read and write</option>
        </select>
      </Field>
      <Field id="token-expires" label="Expires (optional)" error={errors.expires_at}>
        <input id="token-expires" type="date" value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} />
      </Field>
      <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
        Create token
      </button>
    </form>
  );
}

function PasswordCard() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setAlert(null);
    const missing: Record<string, string> = {};
    if (!current) missing.current_password = 'Current Password is required.';
    if (!next) missing.new_password = 'New Password is required.';
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    const r = await changePassword(current, next);
    setBusy(false);
    if (r.ok) {
      setCurrent('');
      setNext('');
      setAlert({ ok: true, text: r.data.message ?? 'Your password has been changed. Other sessions were signed out.' });
    } else {
      setErrors(r.fields);
      setAlert({ ok: false, text: r.text });
    }
  }
  return (
    <Card title="Password">
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate aria-label="Change password">
        <div className="sw-span-2">
          <Banner ok={alert?.ok ?? false} text={alert?.text ?? null} />
        </div>
        <Field id="pw-current" label="Current Password" required error={errors.current_password}>
          <input
            id="pw-current"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </Field>
        <Field id="pw-new" label="New Password" required error={errors.new_password} hint="Changing it signs out your other sessions.">
          <input id="pw-new" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
        </Field>
        <div className="sw-span-2">
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            Change password
          </button>
        </div>
      </form>
    </Card>
  );
}

function SessionsCard() {
  const sessions = useStore($sessions);
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const others = sessions.status === 'ready' ? sessions.data.filter((x) => !x.current).length : 0;
  return (
    <Card
      title="Active sessions"
      testId="sessions"
      action={
        others > 0 && (
          <button type="button" className="sw-btn sw-btn-small sw-btn-danger" onClick={() => setConfirming(true)}>
            Sign out other sessions
          </button>
        )
      }
    >
      <Banner ok={alert?.ok ?? false} text={alert?.text ?? null} />
      <LoadView load={sessions} isEmpty={(d) => d.length === 0} empty="No sessions." rows={2}>
        {(list) => (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a narrow screen scrolls the table; the keyboard must reach it
          <section className="sw-table-wrap" tabIndex={0} aria-label="Active sessions list">
            <table className="sw-table" aria-label="Active sessions">
              <thead>
                <tr>
                  <th scope="col">Browser</th>
                  <th scope="col">Address</th>
                  <th scope="col">Last active</th>
                  <th scope="col">Ends</th>
                </tr>
              </thead>
              <tbody>
                {list.map((x) => (
                  <tr key={x.id}>
                    <td>
                      <span className="sw-ua">{x.user_agent ?? 'Unknown browser'}</span>
                      {x.current && <span className="sw-pill sw-green">This browser</span>}
                    </td>
                    <td>{x.host}</td>
                    <td>{fmtTime(x.last_active_at, '')}</td>
                    <td>{fmtTime(x.expires_at, '')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </LoadView>
      {confirming && (
        <Confirm
          title="Sign out other sessions"
          danger
          confirmLabel="Sign out others"
          text="Sign out every other browser signed in to your account? This one stays signed in."
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void signOutOthers().then((r) =>
              setAlert(r.ok ? { ok: true, text: 'Your other sessions are signed out.' } : { ok: false, text: r.text }),
            );
          }}
        />
      )}
    </Card>
  );
}
