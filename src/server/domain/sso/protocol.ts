// What a sign-in protocol module gives the protocol-neutral SSO sign-in (sign-in.ts): the address
// to send the browser to, and the identity the provider vouched for when it comes back. OIDC is
// one entry of SSO_PROTOCOLS; SAML adds another, the sign-in, JIT and role code stay as they are.
import type { Services } from '../context.ts';
import type { CompanySsoRow } from '../../db/repositories/company-sso-repo.ts';
import type { SsoSettings } from './settings-model.ts';

export const SSO_PROTOCOL_NAMES = ['oidc', 'saml'] as const;
export type SsoProtocolName = (typeof SSO_PROTOCOL_NAMES)[number];

/** Who the identity provider says signed in. */
export interface SsoIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  /** the values of the configured group claim (empty when absent) */
  groups: string[];
  /** SAML: the AuthnRequest this answers (null: unsolicited, IdP-initiated); the sign-in consumes it */
  inResponseTo?: string | null;
}

/**
 * What came back from the provider: OIDC redirects with a query (`url`); SAML's ACS receives an
 * HTTP-POST binding form (`form`: SAMLResponse and RelayState) at `url`.
 */
export interface SsoCallback {
  url: URL;
  form: URLSearchParams | null;
}

/** The one-time values of one sign-in, kept server-side until the callback. */
export interface SsoRequestSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

/** A refusal by the protocol (provider unreachable, token invalid); `detail` goes to the audit log only. */
export class SsoProtocolError extends Error {
  readonly detail: string;
  constructor(detail: string) {
    super(detail);
    this.detail = detail;
  }
}

export interface SsoProtocol {
  /** On save: the provider answers as the settings say (OIDC: a valid discovery document; SAML: nothing to fetch); throws SsoProtocolError. */
  check(services: Services, settings: SsoSettings, clientSecret: string | null): Promise<void>;
  /** The provider's address for this sign-in (the browser is sent there). */
  begin(services: Services, row: CompanySsoRow, secrets: SsoRequestSecrets): Promise<URL>;
  /**
   * The identity of a callback, every check of the protocol passed; throws SsoProtocolError.
   * `secrets` are those of the request the browser's state named (OIDC); null for SAML, whose
   * answer names its request itself (InResponseTo), checked by the module against the database.
   */
  finish(services: Services, row: CompanySsoRow, callback: SsoCallback, secrets: SsoRequestSecrets | null): Promise<SsoIdentity>;
}
