// /settings/sso: the company's single sign-on with OpenID Connect or SAML 2.0 (issue 31), for company admins
// (and super admins on the company chosen in the header). The redirect URI to register at the
// provider, the provider's issuer, client ID and secret (sent once, never shown), scopes, the group
// claim and its group = role lines, the default role, the verified e-mail domains it signs in
// for, and Require SSO with its break-glass admin (the screen says before saving that turning it
// on signs everyone else out). SAML: our entity ID, ACS URL and metadata download to give the IdP,
// and the IdP's SSO URL, entity ID and signing certificates, or its metadata XML pasted.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { $role, $user } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { ErrorPanel, Skeleton } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { Confirm } from '../../ui/Modal.tsx';
import { t, tr } from '../../i18n.ts';
import './sso.css';
import { $sso, $ssoAdmins, $ssoAlert, groupRolesText, loadSso, parseGroupRoles, removeSso, saveSso, type SsoSettings } from './store.ts';

export function SsoPage({ title }: { title: string }) {
  const role = useStore($role);
  const user = useStore($user);
  const chosen = useStore($selectedTenant);
  const superAdmin = role === 'super_admin';
  const tenant = superAdmin ? chosen : null;
  const companyKnown = superAdmin ? !!chosen : !!user?.company_id;
  const sso = useStore($sso);
  const alert = useStore($ssoAlert);
  useEffect(() => {
    $ssoAlert.set(null);
    if (companyKnown) void loadSso(tenant);
  }, [tenant, companyKnown]);
  return (
    <div className="sw-admin sw-settings">
      <nav aria-label={t('sso.page.breadcrumb')} className="sw-breadcrumb">
        <a href="/settings">{t('sso.page.settings')}</a> / <span aria-current="page">{t('sso.page.singleSignOn')}</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      {!companyKnown ? (
        <p className="sw-banner sw-banner-info" role="status">
          {t('sso.page.chooseCompany')}
        </p>
      ) : (
        <section className="sw-card" aria-labelledby="sso-title">
          <header className="sw-card-head">
            <h3 id="sso-title">{t('sso.page.identityProvider')}</h3>
          </header>
          <div className="sw-card-body">
            {alert && (
              <div className={`sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
                {alert.text}
              </div>
            )}
            {sso.status === 'loading' && <Skeleton rows={4} />}
            {sso.status === 'error' && <ErrorPanel message={sso.message} />}
            {sso.status === 'ready' && !sso.data.plan_allows && (
              <p className="sw-banner sw-banner-info" role="status">
                {t('sso.page.enterprisePlanOnly')}
              </p>
            )}
            {sso.status === 'ready' && sso.data.plan_allows && <SsoForm key={sso.data.updated_at ?? 'new'} s={sso.data} tenant={tenant} />}
          </div>
        </section>
      )}
    </div>
  );
}

function SsoForm({ s, tenant }: { s: SsoSettings; tenant: string | null }) {
  const admins = useStore($ssoAdmins);
  const [protocol, setProtocol] = useState<'oidc' | 'saml'>(s.protocol ?? 'oidc');
  const [idpMetadata, setIdpMetadata] = useState('');
  const [idpSsoUrl, setIdpSsoUrl] = useState(s.saml?.idp_sso_url ?? '');
  const [idpEntityId, setIdpEntityId] = useState(s.saml?.idp_entity_id ?? '');
  const [idpCerts, setIdpCerts] = useState('');
  const [emailAttribute, setEmailAttribute] = useState(s.saml?.email_attribute ?? '');
  const [idpInitiated, setIdpInitiated] = useState(s.saml?.allow_idp_initiated ?? false);
  const [issuer, setIssuer] = useState(s.issuer ?? '');
  const [clientId, setClientId] = useState(s.client_id ?? '');
  const [secret, setSecret] = useState('');
  const [scopes, setScopes] = useState(s.scopes.join(' '));
  const [groupClaim, setGroupClaim] = useState(s.group_claim ?? '');
  const [mapping, setMapping] = useState(groupRolesText(s.group_roles));
  const [defaultRole, setDefaultRole] = useState(s.default_role);
  const [domains, setDomains] = useState<string[]>(s.domains);
  const [requireSso, setRequireSso] = useState(s.require_sso);
  const [breakGlass, setBreakGlass] = useState(s.break_glass_user_id ?? '');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const switchingOn = requireSso && !s.require_sso;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const groupRoles = parseGroupRoles(mapping);
    if (!groupRoles) {
      setFields({ group_roles: t('sso.form.groupRolesNotUnderstood') });
      return;
    }
    setBusy(true);
    setError(null);
    setFields({});
    $ssoAlert.set(null);
    const common = {
      group_claim: groupClaim.trim() || null,
      group_roles: groupRoles,
      default_role: defaultRole,
      domains,
      require_sso: requireSso,
      break_glass_user_id: breakGlass || null,
    };
    const r = await saveSso(
      tenant,
      protocol === 'saml'
        ? {
            protocol: 'saml',
            ...(idpMetadata.trim() ? { idp_metadata_xml: idpMetadata } : {}),
            ...(idpSsoUrl.trim() ? { idp_sso_url: idpSsoUrl.trim() } : {}),
            ...(idpEntityId.trim() ? { idp_entity_id: idpEntityId.trim() } : {}),
            ...(idpCerts.trim() ? { idp_certificates: idpCerts } : {}),
            email_attribute: emailAttribute.trim() || null,
            allow_idp_initiated: idpInitiated,
            ...common,
          }
        : {
            protocol: 'oidc',
            issuer: issuer.trim(),
            client_id: clientId.trim(),
            ...(secret ? { client_secret: secret } : {}),
            scopes: scopes.split(/\s+/).filter(Boolean),
            ...common,
          },
    );
    setBusy(false);
    if (!r.ok) {
      setError(r.text);
      setFields(r.fields);
    }
  }

  return (
    <form className="sw-form sw-sso-form" onSubmit={submit} noValidate>
      {error && (
        <p className="sw-banner sw-banner-error" role="alert">
          {error}
        </p>
      )}
      <fieldset className="sw-fieldset sw-protocol">
        <legend>{t('sso.form.protocol')}</legend>
        <label className="sw-check">
          <input type="radio" name="sso-protocol" checked={protocol === 'oidc'} onChange={() => setProtocol('oidc')} />
          OpenID Connect
        </label>
        <label className="sw-check">
          <input type="radio" name="sso-protocol" checked={protocol === 'saml'} onChange={() => setProtocol('saml')} />
          SAML 2.0
        </label>
      </fieldset>
      {protocol === 'oidc' ? (
        <>
          <p className="sw-muted sw-small">{t('sso.oidc.intro')}</p>
          <Field id="sso-redirect" label={t('sso.oidc.redirectUri')}>
            <input id="sso-redirect" readOnly value={s.redirect_uri} onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <Field id="sso-issuer" label={t('sso.oidc.issuerUrl')} required error={fields.issuer} hint={t('sso.oidc.issuerHint')}>
            <input
              id="sso-issuer"
              type="url"
              placeholder="https://example.okta.com"
              value={issuer}
              onChange={(e) => setIssuer(e.target.value)}
            />
          </Field>
          <Field id="sso-client-id" label={t('sso.oidc.clientId')} required error={fields.client_id}>
            <input id="sso-client-id" value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="off" />
          </Field>
          <Field
            id="sso-client-secret"
            label={t('sso.oidc.clientSecret')}
            required={!s.client_secret_set}
            error={fields.client_secret}
            hint={s.client_secret_set ? t('sso.oidc.clientSecretStored') : t('sso.oidc.clientSecretNew')}
          >
            <input
              id="sso-client-secret"
              type="password"
              autoComplete="new-password"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          </Field>
          <Field id="sso-scopes" label={t('sso.oidc.scopes')} error={fields.scopes} hint={t('sso.oidc.scopesHint')}>
            <input id="sso-scopes" value={scopes} onChange={(e) => setScopes(e.target.value)} />
          </Field>
        </>
      ) : (
        <>
          <p className="sw-muted sw-small">{t('sso.saml.intro')}</p>
          <Field id="sso-sp-entity" label={t('sso.saml.ourEntityId')}>
            <input id="sso-sp-entity" readOnly value={s.sp_entity_id} onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <Field id="sso-acs" label={t('sso.saml.acsUrl')}>
            <input id="sso-acs" readOnly value={s.acs_url} onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <p>
            <a
              className="sw-btn"
              href={`/api/v1/company/sso/saml/metadata${tenant ? `?company_id=${encodeURIComponent(tenant)}` : ''}`}
              download="statuswatch-saml-metadata.xml"
            >
              {t('sso.saml.downloadMetadata')}
            </a>
          </p>
          <Field
            id="sso-idp-metadata"
            label={t('sso.saml.idpMetadata')}
            error={fields.idp_metadata_xml}
            hint={t('sso.saml.idpMetadataHint')}
          >
            <textarea id="sso-idp-metadata" rows={3} value={idpMetadata} onChange={(e) => setIdpMetadata(e.target.value)} />
          </Field>
          <Field id="sso-idp-sso-url" label={t('sso.saml.idpSsoUrl')} error={fields.idp_sso_url} hint={t('sso.saml.idpSsoUrlHint')}>
            <input id="sso-idp-sso-url" type="url" value={idpSsoUrl} onChange={(e) => setIdpSsoUrl(e.target.value)} />
          </Field>
          <Field id="sso-idp-entity" label={t('sso.saml.idpEntityId')} error={fields.idp_entity_id}>
            <input id="sso-idp-entity" value={idpEntityId} onChange={(e) => setIdpEntityId(e.target.value)} />
          </Field>
          <Field
            id="sso-idp-certs"
            label={t('sso.saml.signingCertificate')}
            error={fields.idp_certificates}
            hint={
              s.saml?.idp_certificates.length
                ? t('sso.saml.certificatesStored', {
                    certificates: s.saml.idp_certificates
                      .map((c) => t('sso.saml.certificateValidUntil', { subject: c.subject, date: c.not_after.slice(0, 10) }))
                      .join('; '),
                  })
                : t('sso.saml.certificatesHint')
            }
          >
            <textarea
              id="sso-idp-certs"
              rows={3}
              value={idpCerts}
              onChange={(e) => setIdpCerts(e.target.value)}
              placeholder="-----BEGIN CERTIFICATE-----"
            />
          </Field>
          <Field
            id="sso-email-attribute"
            label={t('sso.saml.emailAttribute')}
            error={fields.email_attribute}
            hint={t('sso.saml.emailAttributeHint')}
          >
            <input id="sso-email-attribute" value={emailAttribute} onChange={(e) => setEmailAttribute(e.target.value)} />
          </Field>
          <label className="sw-check">
            <input type="checkbox" checked={idpInitiated} onChange={(e) => setIdpInitiated(e.target.checked)} />
            {t('sso.saml.idpInitiated')}
          </label>
        </>
      )}
      <Field
        id="sso-group-claim"
        label={protocol === 'saml' ? t('sso.groups.attribute') : t('sso.groups.claim')}
        error={fields.group_claim}
        hint={protocol === 'saml' ? t('sso.groups.attributeHint') : t('sso.groups.claimHint')}
      >
        <input id="sso-group-claim" value={groupClaim} onChange={(e) => setGroupClaim(e.target.value)} />
      </Field>
      <Field id="sso-group-roles" label={t('sso.groups.roles')} error={fields.group_roles} hint={t('sso.groups.rolesHint')}>
        <textarea
          id="sso-group-roles"
          rows={3}
          value={mapping}
          onChange={(e) => setMapping(e.target.value)}
          placeholder="statuswatch-admins = admin"
        />
      </Field>
      <Field id="sso-default-role" label={t('sso.groups.defaultRole')} hint={t('sso.groups.defaultRoleHint')}>
        <select id="sso-default-role" value={defaultRole} onChange={(e) => setDefaultRole(e.target.value as 'admin' | 'viewer')}>
          <option value="viewer">{t('sso.groups.viewer')}</option>
          <option value="admin">{t('sso.groups.admin')}</option>
        </select>
      </Field>
      <fieldset className="sw-fieldset" aria-describedby="sso-domains-hint">
        <legend>{t('sso.domains.legend')}</legend>
        {s.verified_domains.length === 0 ? (
          <p className="sw-banner sw-banner-info" id="sso-domains-hint">
            {tr('sso.domains.verifyFirst', { link: (chunks) => <a href="/security/assets">{chunks}</a> })}
          </p>
        ) : (
          <>
            <small className="sw-hint" id="sso-domains-hint">
              {t('sso.domains.hint')}
            </small>
            {s.verified_domains.map((d) => (
              <label key={d} className="sw-check">
                <input
                  type="checkbox"
                  checked={domains.includes(d)}
                  onChange={(e) => setDomains(e.target.checked ? [...domains, d] : domains.filter((x) => x !== d))}
                />
                {d}
              </label>
            ))}
          </>
        )}
        {fields.domains && (
          <small className="sw-field-error" role="alert">
            {fields.domains}
          </small>
        )}
      </fieldset>
      <label className="sw-check">
        <input type="checkbox" checked={requireSso} onChange={(e) => setRequireSso(e.target.checked)} />
        {t('sso.require.label')}
      </label>
      <Field
        id="sso-break-glass"
        label={t('sso.require.breakGlass')}
        required={requireSso}
        error={fields.break_glass_user_id}
        hint={t('sso.require.breakGlassHint')}
      >
        <select id="sso-break-glass" value={breakGlass} onChange={(e) => setBreakGlass(e.target.value)}>
          <option value="">{t('sso.require.none')}</option>
          {admins.map((a) => (
            <option key={a.id} value={a.id}>
              {a.full_name} ({a.email})
            </option>
          ))}
        </select>
      </Field>
      {switchingOn && (
        <p className="sw-banner sw-banner-error" role="status">
          {t('sso.require.signsOutWarning')}
        </p>
      )}
      <div className="sw-row">
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          {busy ? (protocol === 'saml' ? t('sso.actions.saving') : t('sso.actions.checkingProvider')) : t('sso.actions.save')}
        </button>
        {s.configured && (
          <button type="button" className="sw-btn sw-btn-danger" onClick={() => setConfirmRemove(true)}>
            {t('sso.actions.remove')}
          </button>
        )}
      </div>
      {confirmRemove && (
        <Confirm
          title={t('sso.remove.title')}
          confirmLabel={t('sso.remove.confirm')}
          danger
          onCancel={() => setConfirmRemove(false)}
          text={t('sso.remove.text')}
          onConfirm={() => {
            setConfirmRemove(false);
            void removeSso(tenant);
          }}
        />
      )}
    </form>
  );
}
