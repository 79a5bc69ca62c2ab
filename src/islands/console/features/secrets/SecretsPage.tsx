// /settings/secrets: the company's secrets used by synthetic monitors' steps as {{secrets.NAME}}.
// Everyone in the company sees the names, when they changed and which monitors use them; a company
// admin (or a super admin, on the company chosen in the header) adds, replaces and deletes them.
// A value is typed into a password field, sent once and never shown again (the server never
// returns it).
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { $role, $user } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { ErrorPanel, Skeleton } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { fmtTime } from '../../ui/format.ts';
import { Confirm, Modal } from '../../ui/Modal.tsx';
import { FormAlert, ModalActions } from '../../ui/ModalForm.tsx';
import { Table } from '../../ui/Table.tsx';
import { $monitorNames, $secrets, $secretsAlert, deleteSecret, loadSecrets, nameProblem, setSecret, type CompanySecret } from './store.ts';

export function SecretsPage({ title }: { title: string }) {
  const role = useStore($role);
  const user = useStore($user);
  const chosen = useStore($selectedTenant);
  const superAdmin = role === 'super_admin';
  const tenant = superAdmin ? chosen : null;
  const companyKnown = superAdmin ? !!chosen : !!user?.company_id;
  const admin = can(role, 'update', 'settings');
  const secrets = useStore($secrets);
  const names = useStore($monitorNames);
  const alert = useStore($secretsAlert);
  const [editing, setEditing] = useState<{ name: string | null } | null>(null);
  const [deleting, setDeleting] = useState<CompanySecret | null>(null);
  useEffect(() => {
    $secretsAlert.set(null);
    if (companyKnown) void loadSecrets(tenant);
  }, [tenant, companyKnown]);

  return (
    <div className="sw-admin sw-settings">
      <nav aria-label="Breadcrumb" className="sw-breadcrumb">
        <a href="/settings">Settings</a> / <span aria-current="page">Secrets</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      {!companyKnown ? (
        <p className="sw-banner sw-banner-info" role="status">
          Choose a company in the header to see its secrets.
        </p>
      ) : (
        <section className="sw-card" aria-labelledby="secrets-title">
          <header className="sw-card-head sw-row-between">
            <h3 id="secrets-title">Secrets ({secrets.status === 'ready' ? secrets.data.length : 0})</h3>
            {admin && (
              <button type="button" className="sw-btn sw-btn-primary" onClick={() => setEditing({ name: null })}>
                Add secret
              </button>
            )}
          </header>
          <div className="sw-card-body">
            <p className="sw-muted sw-small">
              Passwords and tokens that API flow and browser monitors use in their steps as <code>{'{{secrets.NAME}}'}</code>. Values are
              stored encrypted, never shown again after saving, and appear in results and logs as <code>[secret NAME]</code>.
              {!admin && ' Only your company’s admins can add, replace or delete them.'}
            </p>
            {alert && (
              <div className={`sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
                {alert.text}
              </div>
            )}
            {secrets.status === 'loading' && <Skeleton rows={2} />}
            {secrets.status === 'error' && <ErrorPanel message={secrets.message} />}
            {secrets.status === 'ready' && secrets.data.length === 0 && (
              <p className="sw-empty">{admin ? 'No secrets yet. Add one for the first step that signs in.' : 'No secrets yet.'}</p>
            )}
            {secrets.status === 'ready' && secrets.data.length > 0 && (
              <Table
                aria-labelledby="secrets-title"
                rows={secrets.data}
                rowKey={(s) => s.name}
                columns={[
                  { label: 'Name', cell: (s) => <code>{s.name}</code> },
                  {
                    label: 'Used by',
                    cell: (s) =>
                      s.used_by.length === 0 ? (
                        <span className="sw-muted">No monitor</span>
                      ) : (
                        s.used_by.map((id, i) => (
                          <span key={id}>
                            {i > 0 && ', '}
                            <a className="sw-link" href={`/monitors/${encodeURIComponent(id)}`}>
                              {names[id] ?? 'A monitor'}
                            </a>
                          </span>
                        ))
                      ),
                  },
                  { label: 'Changed', cell: (s) => fmtTime(s.updated_at, '—') },
                  ...(admin
                    ? [
                        {
                          label: 'Actions',
                          className: 'sw-actions',
                          cell: (s: CompanySecret) => (
                            <>
                              <button
                                type="button"
                                className="sw-btn sw-btn-small"
                                aria-label={`Replace ${s.name}`}
                                onClick={() => setEditing({ name: s.name })}
                              >
                                Replace
                              </button>
                              <button
                                type="button"
                                className="sw-btn sw-btn-small sw-btn-danger"
                                aria-label={`Delete ${s.name}`}
                                onClick={() => setDeleting(s)}
                              >
                                Delete
                              </button>
                            </>
                          ),
                        },
                      ]
                    : []),
                ]}
              />
            )}
          </div>
        </section>
      )}
      {editing && (
        <SecretDialog
          tenant={tenant}
          name={editing.name}
          taken={secrets.status === 'ready' ? secrets.data.map((s) => s.name) : []}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <Confirm
          title="Delete secret"
          danger
          confirmLabel="Delete"
          text={`Delete ${deleting.name}? Its value is gone for good; a monitor that still uses it is refused by the server.`}
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const s = deleting;
            setDeleting(null);
            void deleteSecret(tenant, s.name);
          }}
        />
      )}
    </div>
  );
}

/** Add (name and value) or replace (the value only) a secret. */
function SecretDialog(props: { tenant: string | null; name: string | null; taken: string[]; onClose: () => void }) {
  const replacing = props.name !== null;
  const [name, setName] = useState(props.name ?? '');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [text, setText] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const problems: Record<string, string> = {};
    const np = replacing ? null : nameProblem(name);
    if (np) problems.name = np;
    else if (!replacing && props.taken.includes(name))
      problems.name = `${name} already exists: use Replace on its row to change its value.`;
    if (!value) problems.value = 'Value is required.';
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    const r = await setSecret(props.tenant, name, value, replacing);
    setBusy(false);
    if (r.ok) {
      setValue('');
      props.onClose();
    } else {
      setText(r.text);
      setErrors(r.fields);
    }
  }
  return (
    <Modal title={replacing ? `Replace ${props.name}` : 'Add secret'} onClose={props.onClose}>
      <form className="sw-form sw-settings" onSubmit={submit} noValidate>
        <FormAlert text={text} />
        {!replacing && (
          <Field id="s-name" label="Name" required error={errors.name} hint="Used in steps as {{secrets.NAME}}">
            <input
              id="s-name"
              value={name}
              maxLength={64}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? 's-name-error' : 's-name-hint'}
              onChange={(e) => {
                setName(e.target.value.toUpperCase());
                setErrors((x) => ({ ...x, name: '' }));
              }}
            />
          </Field>
        )}
        <Field id="s-value" label={replacing ? 'New value' : 'Value'} required error={errors.value} hint="Never shown again after saving.">
          <input
            id="s-value"
            type="password"
            value={value}
            maxLength={10000}
            autoComplete="new-password"
            aria-invalid={errors.value ? true : undefined}
            aria-describedby={errors.value ? 's-value-error' : 's-value-hint'}
            onChange={(e) => {
              setValue(e.target.value);
              setErrors((x) => ({ ...x, value: '' }));
            }}
          />
        </Field>
        <ModalActions onClose={props.onClose} busy={busy} submitLabel={replacing ? 'Replace value' : 'Add secret'} />
      </form>
    </Modal>
  );
}
