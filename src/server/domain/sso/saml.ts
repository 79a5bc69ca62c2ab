// SAML 2.0 (issue 31) with @node-saml/node-saml: the SP-initiated AuthnRequest (HTTP-Redirect
// binding) and the check of the IdP's answer at our ACS (HTTP-POST binding). node-saml verifies the
// XML signatures with xml-crypto against the IdP's certificates (the response's or else the
// assertion's, and only the signed content is read, which refuses wrapped signatures), the audience
// and the assertion's count. The rest is checked here, with the server's clock: the issuer, the
// bearer confirmation's Recipient (our ACS), the response's Destination, NotBefore/NotOnOrAfter
// (saml-times.ts), and the assertion ID against the replay cache in the database. Which request
// the answer is for (InResponseTo) goes back to the protocol-neutral sign-in, which consumes it.
import { DOMParser } from '@xmldom/xmldom';
import { SAML, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import type { Services } from '../context.ts';
import type { CompanySsoRow } from '../../db/repositories/company-sso-repo.ts';
import { samlReplayRepo } from '../../db/repositories/saml-repo.ts';
import { SsoProtocolError, type SsoIdentity, type SsoProtocol } from './protocol.ts';
import { parseSsoSettings, type SamlSettings } from './settings-model.ts';
import { samlSpOf, type SamlSp } from './saml-sp.ts';
import { assertionTimeProblem } from './saml-times.ts';

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
/** A SAMLResponse larger than this is not one an IdP sends for one person. */
export const MAX_SAML_RESPONSE_CHARS = 256 * 1024;
/** Attribute names IdPs use for the display name (Okta/Keycloak, Entra ID, Google). */
const NAME_ATTRIBUTES = ['displayName', 'name', 'http://schemas.microsoft.com/identity/claims/displayname', 'cn'];

export function samlSettingsOf(row: Pick<CompanySsoRow, 'settings'>): SamlSettings {
  const s = parseSsoSettings(row.settings);
  if (s.protocol !== 'saml') throw new SsoProtocolError('the company has no SAML settings');
  return s;
}

function samlClient(settings: SamlSettings, sp: SamlSp, requestId?: string): SAML {
  return new SAML({
    entryPoint: settings.idp_sso_url,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    audience: sp.entityId,
    idpCert: settings.idp_certs,
    // Either the response or the assertion must be signed (Okta and Entra ID sign the assertion,
    // Keycloak the response by default): node-saml then demands the assertion's signature
    // whenever the response's is absent or not valid, so an unsigned answer never passes.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    // The times are checked with the server's clock (saml-times.ts), the request by the sign-in.
    acceptedClockSkewMs: -1,
    validateInResponseTo: ValidateInResponseTo.never,
    identifierFormat: settings.email_attribute ? null : EMAIL_FORMAT,
    disableRequestedAuthnContext: true,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

/** The AuthnRequest ID of a sign-in (an XML ID starts with a letter or _). */
export const samlRequestId = (nonce: string) => `_${nonce}`;

type XmlJs = Record<string, unknown> & { $?: Record<string, string>; _?: string };
const first = (v: unknown): XmlJs | undefined => (Array.isArray(v) ? (v[0] as XmlJs) : undefined);
const all = (v: unknown): XmlJs[] => (Array.isArray(v) ? (v as XmlJs[]) : []);

function attributeValues(profile: Profile, name: string | null): string[] {
  if (!name) return [];
  const attrs = (profile.attributes ?? {}) as Record<string, unknown>;
  const v = attrs[name];
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list
    .filter((x): x is string => typeof x === 'string')
    .map((x) => x.trim())
    .filter(Boolean);
}

/** The outer Response's Destination and status (read from the document as posted). */
function responseEnvelope(xml: string): { destination: string | null; status: string | null } {
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: () => {}, fatalError: () => {} } }).parseFromString(
    xml,
    'text/xml',
  );
  const root = doc.documentElement;
  const status = root ? Array.from(root.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:protocol', 'StatusCode'))[0] : undefined;
  return { destination: root?.getAttribute('Destination') || null, status: status?.getAttribute('Value') ?? null };
}

function failure(e: unknown): SsoProtocolError {
  if (e instanceof SsoProtocolError) return e;
  return new SsoProtocolError(`saml: ${String((e as Error)?.message ?? e).slice(0, 400)}`);
}

export const samlProtocol: SsoProtocol = {
  async check(_services, settings) {
    // Nothing to fetch: the certificates were read and dated when the settings were checked.
    if (settings.protocol !== 'saml') throw new SsoProtocolError('not SAML settings');
  },
  async begin(_services, row, secrets) {
    const settings = samlSettingsOf(row);
    const sp = samlSpOf(new URL(secrets.redirectUri).origin);
    // RelayState is the sign-in's one-time state: the ACS finds the request by it and by InResponseTo.
    const url = await samlClient(settings, sp, samlRequestId(secrets.nonce)).getAuthorizeUrlAsync(secrets.state, undefined, {});
    return new URL(url);
  },
  async finish(services: Services, row, callback): Promise<SsoIdentity> {
    const settings = samlSettingsOf(row);
    const sp = samlSpOf(callback.url.origin);
    const encoded = callback.form?.get('SAMLResponse') ?? '';
    if (!encoded) throw new SsoProtocolError('saml: no SAMLResponse in the posted form');
    if (encoded.length > MAX_SAML_RESPONSE_CHARS) throw new SsoProtocolError('saml: the SAMLResponse is too large');
    const xml = Buffer.from(encoded, 'base64').toString('utf8');
    if (/<!DOCTYPE/i.test(xml)) throw new SsoProtocolError('saml: a document type declaration is not accepted');
    const envelope = responseEnvelope(xml);
    if (envelope.status && envelope.status !== SUCCESS)
      throw new SsoProtocolError(`saml: the identity provider answered ${envelope.status}`);
    let profile: Profile | null;
    try {
      ({ profile } = await samlClient(settings, sp).validatePostResponseAsync({ SAMLResponse: encoded }));
    } catch (e) {
      throw failure(e);
    }
    if (!profile) throw new SsoProtocolError('saml: the response carries no assertion');
    if (envelope.destination !== null && envelope.destination !== sp.acsUrl)
      throw new SsoProtocolError(`saml: the response's Destination ${envelope.destination.slice(0, 200)} is not this ACS (${sp.acsUrl})`);
    if (profile.issuer !== settings.idp_entity_id)
      throw new SsoProtocolError(`saml: the assertion's issuer ${String(profile.issuer).slice(0, 200)} is not ${settings.idp_entity_id}`);
    // Everything below is read from the signed assertion only.
    const assertion = (profile.getAssertion?.() as { Assertion?: XmlJs } | undefined)?.Assertion;
    if (!assertion) throw new SsoProtocolError('saml: the signed assertion could not be read');
    const assertionId = assertion.$?.ID;
    if (!assertionId) throw new SsoProtocolError('saml: the assertion has no ID');
    const conditions = first(assertion.Conditions)?.$ ?? {};
    const bearer = all(first(assertion.Subject)?.SubjectConfirmation).filter((c) => c.$?.Method === BEARER);
    if (bearer.length === 0) throw new SsoProtocolError('saml: the assertion has no bearer subject confirmation');
    const datas = bearer.map((c) => first(c.SubjectConfirmationData)?.$ ?? {});
    const forUs = datas.filter((d) => d.Recipient === sp.acsUrl);
    if (forUs.length === 0)
      throw new SsoProtocolError(
        `saml: the subject confirmation's Recipient ${String(datas[0].Recipient ?? '(none)').slice(0, 200)} is not this ACS (${sp.acsUrl})`,
      );
    const data = forUs[0];
    const now = services.now();
    const times = assertionTimeProblem(
      {
        notBefore: conditions.NotBefore,
        notOnOrAfter: conditions.NotOnOrAfter,
        subjectNotBefore: data.NotBefore,
        subjectNotOnOrAfter: data.NotOnOrAfter,
      },
      now,
    );
    if (times.problem) throw new SsoProtocolError(`saml: ${times.problem} (now ${new Date(now).toISOString()})`);
    const responseInResponseTo = profile.inResponseTo as string | undefined;
    const inResponseTo = data.InResponseTo ?? null;
    if (responseInResponseTo && inResponseTo && responseInResponseTo !== inResponseTo)
      throw new SsoProtocolError('saml: the response and its assertion answer different requests');
    if (!(await samlReplayRepo(services.db).remember(row.company_id, assertionId, times.expiresAt, now)))
      throw new SsoProtocolError(`saml: assertion ${assertionId.slice(0, 100)} was already used (replayed)`);
    const nameId = typeof profile.nameID === 'string' ? profile.nameID.trim() : '';
    const fromAttribute = attributeValues(profile, settings.email_attribute)[0];
    const email = (settings.email_attribute ? fromAttribute : nameId)?.toLowerCase() || null;
    const name = NAME_ATTRIBUTES.map((n) => attributeValues(profile, n)[0]).find(Boolean) ?? null;
    return {
      subject: nameId || email || assertionId,
      email: email && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null,
      // The IdP asserts the address in a signed assertion; the configured, verified domains decide.
      emailVerified: true,
      name: name ? name.slice(0, 200) : null,
      groups: attributeValues(profile, settings.group_claim),
      // A cut InResponseTo makes an answer unsolicited: accepted only where IdP-initiated sign-in is on.
      inResponseTo: inResponseTo ?? responseInResponseTo ?? null,
    };
  },
};
