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
      <nav aria-label="Breadcrumb" className="sw-breadcrumb">
        <a href="/settings">Settings</a> / <span aria-current="page">Single sign-on</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      {!companyKnown ? (
        <p className="sw-banner sw-banner-info" role="status">
          Choose a company in the header to see its single sign-on.
        </p>
      ) : (
        <section className="sw-card" aria-labelledby="sso-title">
          <header className="sw-card-head">
            <h3 id="sso-title">Identity provider</h3>
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
                Single sign-on is part of the Enterprise plan. Ask the platform administrator to change your plan.
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
      setFields({ group_roles: 'One mapping a line: group = admin, or group = viewer' });
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
        <legend>Protocol</legend>
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
          <p className="sw-muted sw-small">
            Register an OpenID Connect web application at your identity provider (Okta, Microsoft Entra ID, Keycloak, Google Workspace…)
            with this sign-in redirect URI, then enter what it gives you. Your people then choose “Sign in with SSO” on your sign-in page.
          </p>
          <Field id="sso-redirect" label="Redirect URI (register it at your provider)">
            <input id="sso-redirect" readOnly value={s.redirect_uri} onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <Field
            id="sso-issuer"
            label="Issuer URL"
            required
            error={fields.issuer}
            hint="Its /.well-known/openid-configuration is fetched and checked when you save."
          >
            <input
              id="sso-issuer"
              type="url"
              placeholder="https://example.okta.com"
              value={issuer}
              onChange={(e) => setIssuer(e.target.value)}
            />
          </Field>
          <Field id="sso-client-id" label="Client ID" required error={fields.client_id}>
            <input id="sso-client-id" value={clientId} onChange={(e) => setClientId(e.target.value)} autoComplete="off" />
          </Field>
          <Field
            id="sso-client-secret"
            label="Client secret"
            required={!s.client_secret_set}
            error={fields.client_secret}
            hint={
              s.client_secret_set ? 'A secret is stored (encrypted). Leave empty to keep it.' : 'Stored encrypted and never shown again.'
            }
          >
            <input
              id="sso-client-secret"
              type="password"
              autoComplete="new-password"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          </Field>
          <Field id="sso-scopes" label="Scopes" error={fields.scopes} hint="Separated by spaces; openid is always asked.">
            <input id="sso-scopes" value={scopes} onChange={(e) => setScopes(e.target.value)} />
          </Field>
        </>
      ) : (
        <>
          <p className="sw-muted sw-small">
            Add a SAML 2.0 application at your identity provider (Okta, Microsoft Entra ID, Keycloak, Google Workspace…) with our entity ID
            and ACS URL, or import our metadata; then paste its metadata here, or its single sign-on URL, entity ID and signing certificate.
          </p>
          <Field id="sso-sp-entity" label="Our entity ID (audience)">
            <input id="sso-sp-entity" readOnly value={s.sp_entity_id} onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <Field id="sso-acs" label="ACS URL (single sign-on URL at your provider)">
            <input id="sso-acs" readOnly value={s.acs_url} onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <p>
            <a
              className="sw-btn"
              href={`/api/v1/company/sso/saml/metadata${tenant ? `?company_id=${encodeURIComponent(tenant)}` : ''}`}
              download="statuswatch-saml-metadata.xml"
            >
              Download our SAML metadata
            </a>
          </p>
          <Field
            id="sso-idp-metadata"
            label="Identity provider metadata XML (optional)"
            error={fields.idp_metadata_xml}
            hint="Paste it to fill the three values below; a value you type wins."
          >
            <textarea id="sso-idp-metadata" rows={3} value={idpMetadata} onChange={(e) => setIdpMetadata(e.target.value)} />
          </Field>
          <Field
            id="sso-idp-sso-url"
            label="Identity provider single sign-on URL"
            error={fields.idp_sso_url}
            hint="SAML 2.0, HTTP-Redirect binding."
          >
            <input id="sso-idp-sso-url" type="url" value={idpSsoUrl} onChange={(e) => setIdpSsoUrl(e.target.value)} />
          </Field>
          <Field id="sso-idp-entity" label="Identity provider entity ID (issuer)" error={fields.idp_entity_id}>
            <input id="sso-idp-entity" value={idpEntityId} onChange={(e) => setIdpEntityId(e.target.value)} />
          </Field>
          <Field
            id="sso-idp-certs"
            label="Signing certificate (PEM)"
            error={fields.idp_certificates}
            hint={
              s.saml?.idp_certificates.length
                ? `Stored: ${s.saml.idp_certificates.map((c) => `${c.subject}, valid until ${c.not_after.slice(0, 10)}`).join('; ')}. Leave empty to keep.`
                : 'One or more certificates; each must be valid today.'
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
            label="E-mail attribute"
            error={fields.email_attribute}
            hint="Empty: the NameID (when it is an e-mail address). E.g. email, or http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress."
          >
            <input id="sso-email-attribute" value={emailAttribute} onChange={(e) => setEmailAttribute(e.target.value)} />
          </Field>
          <label className="sw-check">
            <input type="checkbox" checked={idpInitiated} onChange={(e) => setIdpInitiated(e.target.checked)} />
            Accept sign-ins started at the identity provider (IdP-initiated, from its dashboard)
          </label>
        </>
      )}
      <Field
        id="sso-group-claim"
        label={protocol === 'saml' ? 'Group attribute' : 'Group claim'}
        error={fields.group_claim}
        hint={
          protocol === 'saml'
            ? 'The SAML attribute with the person’s groups, e.g. groups. Empty: everyone gets the default role.'
            : 'The ID-token claim with the person’s groups, e.g. groups. Empty: everyone gets the default role.'
        }
      >
        <input id="sso-group-claim" value={groupClaim} onChange={(e) => setGroupClaim(e.target.value)} />
      </Field>
      <Field
        id="sso-group-roles"
        label="Group → role"
        error={fields.group_roles}
        hint="One a line: group = admin, or group = viewer. Admin wins when several match."
      >
        <textarea
          id="sso-group-roles"
          rows={3}
          value={mapping}
          onChange={(e) => setMapping(e.target.value)}
          placeholder="statuswatch-admins = admin"
        />
      </Field>
      <Field id="sso-default-role" label="Default role" hint="For new people whose groups match no line.">
        <select id="sso-default-role" value={defaultRole} onChange={(e) => setDefaultRole(e.target.value as 'admin' | 'viewer')}>
          <option value="viewer">Viewer</option>
          <option value="admin">Admin</option>
        </select>
      </Field>
      <fieldset className="sw-fieldset" aria-describedby="sso-domains-hint">
        <legend>E-mail domains</legend>
        {s.verified_domains.length === 0 ? (
          <p className="sw-banner sw-banner-info" id="sso-domains-hint">
            Verify your e-mail domain in <a href="/security/assets">Security &gt; Assets</a> first: single sign-on signs in only for domains
            your company has proven it controls.
          </p>
        ) : (
          <>
            <small className="sw-hint" id="sso-domains-hint">
              Your verified domains. People with an address in a checked one sign in with SSO (new ones get an account).
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
        Require SSO: no password sign-in or password reset for your people
      </label>
      <Field
        id="sso-break-glass"
        label="Break-glass admin"
        required={requireSso}
        error={fields.break_glass_user_id}
        hint="Keeps password sign-in, for when the identity provider is down."
      >
        <select id="sso-break-glass" value={breakGlass} onChange={(e) => setBreakGlass(e.target.value)}>
          <option value="">None</option>
          {admins.map((a) => (
            <option key={a.id} value={a.id}>
              {a.full_name} ({a.email})
            </option>
          ))}
        </select>
      </Field>
      {switchingOn && (
        <p className="sw-banner sw-banner-error" role="status">
          Saving with Require SSO on signs out everyone of your company except the break-glass admin; they sign in again with SSO.
        </p>
      )}
      <div className="sw-row">
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          {busy ? (protocol === 'saml' ? 'Saving…' : 'Checking the provider…') : 'Save'}
        </button>
        {s.configured && (
          <button type="button" className="sw-btn sw-btn-danger" onClick={() => setConfirmRemove(true)}>
            Remove single sign-on
          </button>
        )}
      </div>
      {confirmRemove && (
        <Confirm
          title="Remove single sign-on?"
          confirmLabel="Remove"
          danger
          onCancel={() => setConfirmRemove(false)}
          text="Everyone signs in with their password again; people created by single sign-on have none yet and use “Forgot password?”."
          onConfirm={() => {
            setConfirmRemove(false);
            void removeSso(tenant);
          }}
        />
      )}
    </form>
  );
}
