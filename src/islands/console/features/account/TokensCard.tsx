// The API tokens card of /settings/account: create one (shown once with a copy button), list, revoke.
import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import { Card, LoadView } from '../../ui/Card.tsx';
import { Confirm } from '../../ui/Modal.tsx';
import { Field } from '../../ui/Field.tsx';
import { fmtTime } from '../../ui/format.ts';
import { $tokens, createToken, revokeToken, type ApiToken } from './store.ts';
import { CopyValue } from '../../ui/CopyValue.tsx';
import { Banner } from './Banner.tsx';
import { Table } from '../../ui/Table.tsx';

export function TokensCard() {
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
          <Table
            stack={false}
            scrollLabel="API tokens list"
            aria-label="API tokens"
            rows={list}
            rowKey={(t) => t.id}
            columns={[
              { label: 'Name', cell: (t) => t.name },
              { label: 'Scope', cell: (t) => (t.scope === 'read' ? 'Read only' : 'Read and write') },
              { label: 'Token', className: 'sw-mono', cell: (t) => `${t.prefix}…` },
              { label: 'Created', cell: (t) => fmtTime(t.created_at, '') },
              {
                label: 'Expires',
                cell: (t) => (t.expired ? <span className="sw-pill sw-red">Expired</span> : fmtTime(t.expires_at, 'Never')),
              },
              { label: 'Last used', cell: (t) => fmtTime(t.last_used_at, 'Never') },
              {
                label: 'Actions',
                cell: (t) => (
                  <button
                    type="button"
                    className="sw-btn sw-btn-small sw-btn-danger"
                    aria-label={`Revoke ${t.name}`}
                    onClick={() => setRevoking(t)}
                  >
                    Revoke
                  </button>
                ),
              },
            ]}
          />
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
