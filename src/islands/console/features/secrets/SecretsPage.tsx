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
import { t, tr } from '../../i18n.ts';
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
      <nav aria-label={t('secrets.breadcrumb')} className="sw-breadcrumb">
        <a href="/settings">{t('secrets.settings')}</a> / <span aria-current="page">{t('secrets.crumb')}</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      {!companyKnown ? (
        <p className="sw-banner sw-banner-info" role="status">
          {t('secrets.chooseCompany')}
        </p>
      ) : (
        <section className="sw-card" aria-labelledby="secrets-title">
          <header className="sw-card-head sw-row-between">
            <h3 id="secrets-title">{t('secrets.cardTitle', { count: secrets.status === 'ready' ? secrets.data.length : 0 })}</h3>
            {admin && (
              <button type="button" className="sw-btn sw-btn-primary" onClick={() => setEditing({ name: null })}>
                {t('secrets.add')}
              </button>
            )}
          </header>
          <div className="sw-card-body">
            <p className="sw-muted sw-small">
              {tr('secrets.intro', { use: <code>{'{{secrets.NAME}}'}</code>, masked: <code>[secret NAME]</code> })}
              {!admin && ` ${t('secrets.onlyAdmins')}`}
            </p>
            {alert && (
              <div className={`sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
                {alert.text}
              </div>
            )}
            {secrets.status === 'loading' && <Skeleton rows={2} />}
            {secrets.status === 'error' && <ErrorPanel message={secrets.message} />}
            {secrets.status === 'ready' && secrets.data.length === 0 && (
              <p className="sw-empty">{admin ? t('secrets.emptyAdmin') : t('secrets.empty')}</p>
            )}
            {secrets.status === 'ready' && secrets.data.length > 0 && (
              <Table
                aria-labelledby="secrets-title"
                rows={secrets.data}
                rowKey={(s) => s.name}
                columns={[
                  { label: t('secrets.col.name'), cell: (s) => <code>{s.name}</code> },
                  {
                    label: t('secrets.col.usedBy'),
                    cell: (s) =>
                      s.used_by.length === 0 ? (
                        <span className="sw-muted">{t('secrets.noMonitor')}</span>
                      ) : (
                        s.used_by.map((id, i) => (
                          <span key={id}>
                            {i > 0 && ', '}
                            <a className="sw-link" href={`/monitors/${encodeURIComponent(id)}`}>
                              {names[id] ?? t('secrets.aMonitor')}
                            </a>
                          </span>
                        ))
                      ),
                  },
                  { label: t('secrets.col.changed'), cell: (s) => fmtTime(s.updated_at, '—') },
                  ...(admin
                    ? [
                        {
                          label: t('secrets.col.actions'),
                          className: 'sw-actions',
                          cell: (s: CompanySecret) => (
                            <>
                              <button
                                type="button"
                                className="sw-btn sw-btn-small"
                                aria-label={t('secrets.replaceLabel', { name: s.name })}
                                onClick={() => setEditing({ name: s.name })}
                              >
                                {t('secrets.replace')}
                              </button>
                              <button
                                type="button"
                                className="sw-btn sw-btn-small sw-btn-danger"
                                aria-label={t('secrets.deleteLabel', { name: s.name })}
                                onClick={() => setDeleting(s)}
                              >
                                {t('secrets.delete')}
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
          title={t('secrets.confirm.title')}
          danger
          confirmLabel={t('secrets.delete')}
          text={t('secrets.confirm.text', { name: deleting.name })}
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
    else if (!replacing && props.taken.includes(name)) problems.name = t('secrets.form.taken', { name });
    if (!value) problems.value = t('secrets.form.valueRequired');
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
    <Modal title={replacing ? t('secrets.replaceLabel', { name: props.name ?? '' }) : t('secrets.add')} onClose={props.onClose}>
      <form className="sw-form sw-settings" onSubmit={submit} noValidate>
        <FormAlert text={text} />
        {!replacing && (
          <Field id="s-name" label={t('secrets.form.name')} required error={errors.name} hint={t('secrets.form.nameHint')}>
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
        <Field
          id="s-value"
          label={replacing ? t('secrets.form.newValue') : t('secrets.form.value')}
          required
          error={errors.value}
          hint={t('secrets.form.valueHint')}
        >
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
        <ModalActions onClose={props.onClose} busy={busy} submitLabel={replacing ? t('secrets.form.replaceValue') : t('secrets.add')} />
      </form>
    </Modal>
  );
}
