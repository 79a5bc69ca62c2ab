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
import { t, tr } from '../../i18n.ts';

export function TokensCard() {
  const tokens = useStore($tokens);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <Card title={t('account.tokensCard.aPITokens')} testId="api-tokens">
      <p className="sw-muted">
        {tr('account.tokensCard.intro', { header: <code>Authorization: Bearer &lt;token&gt;</code>, path: <code>/api/v1</code> })}
      </p>
      <Banner ok={alert?.ok ?? false} text={alert?.text ?? null} />
      {created && (
        <div className="sw-token-once" data-testid="new-token">
          <p className="sw-banner sw-banner-ok" role="status">
            {t('account.tokensCard.tokenCreatedCopyItNow', { name: created.name })}
          </p>
          <CopyValue id="new-token" label={t('account.tokensCard.yourNewToken')} value={created.token} />
          <button type="button" className="sw-btn sw-btn-small" onClick={() => setCreated(null)}>
            {t('account.tokensCard.done')}
          </button>
        </div>
      )}
      <CreateTokenForm
        onCreated={(name, token) => {
          setAlert(null);
          setCreated({ name, token });
        }}
      />
      <LoadView load={tokens} isEmpty={(d) => d.length === 0} empty={t('account.tokensCard.noAPITokensYet')} rows={2}>
        {(list) => (
          <Table
            stack={false}
            scrollLabel={t('account.tokensCard.aPITokensList')}
            aria-label={t('account.tokensCard.aPITokens')}
            rows={list}
            rowKey={(tok) => tok.id}
            columns={[
              { label: t('account.passkeysCard.name'), cell: (tok) => tok.name },
              {
                label: t('account.tokensCard.scope'),
                cell: (tok) => (tok.scope === 'read' ? t('account.tokensCard.readOnly') : t('account.tokensCard.readAndWrite')),
              },
              { label: t('account.tokensCard.token'), className: 'sw-mono', cell: (tok) => `${tok.prefix}…` },
              { label: t('account.tokensCard.created'), cell: (tok) => fmtTime(tok.created_at, '') },
              {
                label: t('account.tokensCard.expires'),
                cell: (tok) =>
                  tok.expired ? (
                    <span className="sw-pill sw-red">{t('account.tokensCard.expired')}</span>
                  ) : (
                    fmtTime(tok.expires_at, t('account.tokensCard.never'))
                  ),
              },
              { label: t('account.passkeysCard.lastUsed'), cell: (tok) => fmtTime(tok.last_used_at, t('account.tokensCard.never')) },
              {
                label: t('account.passkeysCard.actions'),
                cell: (tok) => (
                  <button
                    type="button"
                    className="sw-btn sw-btn-small sw-btn-danger"
                    aria-label={t('account.tokensCard.revoke2', { name: tok.name })}
                    onClick={() => setRevoking(tok)}
                  >
                    {t('account.tokensCard.revoke')}
                  </button>
                ),
              },
            ]}
          />
        )}
      </LoadView>
      {revoking && (
        <Confirm
          title={t('account.tokensCard.revokeAPIToken')}
          danger
          confirmLabel={t('account.tokensCard.revoke')}
          text={t('account.tokensCard.revokeScriptsUsingItStop', { name: revoking.name })}
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            const tok = revoking;
            setRevoking(null);
            void revokeToken(tok.id).then((r) =>
              setAlert(r.ok ? { ok: true, text: t('account.tokensCard.tokenRevoked', { name: tok.name }) } : { ok: false, text: r.text }),
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
    if (!name.trim()) return setErrors({ name: t('account.tokensCard.nameIsRequired') });
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
    <form className="sw-form sw-token-form" onSubmit={submit} noValidate aria-label={t('account.tokensCard.createAnAPIToken')}>
      <Banner ok={false} text={failure} />
      <Field id="token-name" label={t('account.passkeysCard.name')} required error={errors.name}>
        <input
          id="token-name"
          value={name}
          maxLength={100}
          placeholder={t('account.tokensCard.eGCIDeploys')}
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <Field id="token-scope" label={t('account.tokensCard.scope')} required>
        <select id="token-scope" value={scope} onChange={(e) => setScope(e.target.value as 'read' | 'write')}>
          <option value="read">{t('account.tokensCard.readOnly')}</option>
          <option value="write">{t('account.tokensCard.readAndWrite')}</option>
        </select>
      </Field>
      <Field id="token-expires" label={t('account.tokensCard.expiresOptional')} error={errors.expires_at}>
        <input id="token-expires" type="date" value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} />
      </Field>
      <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
        {t('account.tokensCard.createToken')}
      </button>
    </form>
  );
}
