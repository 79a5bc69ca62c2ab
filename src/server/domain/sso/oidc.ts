// The OpenID Connect exchange (authorization code with PKCE, state and nonce) with openid-client,
// which checks the ID token's signature (jose, against the provider's published keys), issuer,
// audience, expiry and nonce. Every request to the provider goes through the SSRF guard (a
// private address only when the operator allows private targets) and connects to the address it
// checked (net/pinned-fetch.ts: no DNS rebinding between check and connection), bounded in time,
// without following redirects; plain http only then too (a provider on the operator's own network).
import * as oidc from 'openid-client';
import type { Services } from '../context.ts';
import type { CompanySsoRow } from '../../db/repositories/company-sso-repo.ts';
import { dnsResolver } from '../../net/dns-lookup.ts';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { pinnedFetch } from '../../net/pinned-fetch.ts';
import { monitorSecretsKey, open } from '../../engine/kinds/secret-box.ts';
import { SsoProtocolError, type SsoIdentity, type SsoProtocol, type SsoRequestSecrets } from './protocol.ts';
import { parseSsoSettings, type OidcSettings } from './settings-model.ts';

const PROVIDER_TIMEOUT_MS = 10_000;

function guardedFetch(services: Services): oidc.CustomFetch {
  const allow = services.config.allowPrivateTargets;
  const resolve = services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers);
  return async (url, options) => {
    const u = new URL(url);
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && allow !== false))
      throw new SsoProtocolError(`the identity provider must be reached over https (${u.origin})`);
    const signal = AbortSignal.timeout(PROVIDER_TIMEOUT_MS);
    const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
    let address: string;
    try {
      ({ address } = await resolveSafe(host, allow, resolve, signal));
    } catch (e) {
      if (e instanceof TargetRefused) throw new SsoProtocolError(`${u.host}: ${e.message}`);
      throw new SsoProtocolError(`${u.host} could not be resolved`);
    }
    const headers: Record<string, string> = {};
    new Headers(options.headers as HeadersInit | undefined).forEach((v, k) => {
      headers[k] = v;
    });
    // openid-client posts the token request as URLSearchParams (its content type already set)
    const raw = options.body as unknown;
    const body =
      raw instanceof URLSearchParams
        ? raw.toString()
        : raw instanceof ArrayBuffer
          ? new Uint8Array(raw)
          : (raw as string | Uint8Array | null | undefined);
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
      throw new SsoProtocolError(`an unexpected request body type for ${u.host}`);
    try {
      return await pinnedFetch(u, address, { method: options.method, headers, body: body ?? null, signal });
    } catch (e) {
      throw new SsoProtocolError(`${u.host}: ${signal.aborted ? 'timed out' : String((e as Error)?.message ?? e).slice(0, 200)}`);
    }
  };
}

/** The provider's configuration from its discovery document (fetched and validated by openid-client). */
export async function discoverOidc(services: Services, settings: OidcSettings, clientSecret: string | null): Promise<oidc.Configuration> {
  let issuer: URL;
  try {
    issuer = new URL(settings.issuer);
  } catch {
    throw new SsoProtocolError('the issuer URL is not valid');
  }
  try {
    return await oidc.discovery(issuer, settings.client_id, undefined, clientSecret ? oidc.ClientSecretPost(clientSecret) : oidc.None(), {
      [oidc.customFetch]: guardedFetch(services),
      timeout: PROVIDER_TIMEOUT_MS / 1000,
      ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  } catch (e) {
    throw asProtocolError(e, 'discovery');
  }
}

function asProtocolError(e: unknown, step: string): SsoProtocolError {
  if (e instanceof SsoProtocolError) return e;
  const err = e as { message?: string; code?: string; cause?: unknown };
  // openid-client wraps the check that failed (e.g. 'unexpected JWT "aud" (audience) claim value')
  // and names its claim in the causes: the audit log says which.
  let extra = '';
  for (
    let c = err.cause as { message?: string; cause?: unknown; claim?: unknown } | undefined, i = 0;
    c && i < 3;
    c = c.cause as typeof c, i++
  ) {
    if (c instanceof SsoProtocolError) extra += `: ${c.detail}`;
    else if (typeof c.claim === 'string') extra += ` (claim ${c.claim})`;
    else if (typeof c.message === 'string' && c.message !== err.message) extra += `: ${c.message}`;
  }
  return new SsoProtocolError(`${step}: ${err.code ? `${err.code} ` : ''}${String(err.message ?? e)}${extra}`.slice(0, 500));
}

function secretOf(services: Services, row: CompanySsoRow): string | null {
  if (!row.client_secret) return null;
  const plain = open(monitorSecretsKey(services.config), row.client_secret);
  if (plain === null) throw new SsoProtocolError('the stored client secret cannot be decrypted (was MONITOR_SECRETS_KEY changed?)');
  return plain;
}

function oidcSettingsOf(row: CompanySsoRow): OidcSettings {
  const s = parseSsoSettings(row.settings);
  if (s.protocol !== 'oidc') throw new SsoProtocolError('the company has no OpenID Connect settings');
  return s;
}

function claimValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return [];
}

export const oidcProtocol: SsoProtocol = {
  async check(services, settings, clientSecret) {
    if (settings.protocol !== 'oidc') throw new SsoProtocolError('not OpenID Connect settings');
    await discoverOidc(services, settings, clientSecret);
  },
  async begin(services, row, secrets: SsoRequestSecrets) {
    const settings = oidcSettingsOf(row);
    const config = await discoverOidc(services, settings, secretOf(services, row));
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: secrets.redirectUri,
      scope: settings.scopes.join(' '),
      state: secrets.state,
      nonce: secrets.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(secrets.codeVerifier),
      code_challenge_method: 'S256',
    });
  },
  async finish(services, row, callback, secrets): Promise<SsoIdentity> {
    const settings = oidcSettingsOf(row);
    if (!secrets) throw new SsoProtocolError('token: no sign-in request for this callback');
    const callbackUrl = callback.url;
    const config = await discoverOidc(services, settings, secretOf(services, row));
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: secrets.codeVerifier,
        expectedState: secrets.state,
        expectedNonce: secrets.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (e) {
      throw asProtocolError(e, 'token');
    }
    if (!claims) throw new SsoProtocolError('token: no ID token');
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null;
    return {
      subject: claims.sub,
      email,
      // Only an explicit true: a provider that does not say has not verified it.
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === 'string' ? claims.name.slice(0, 200) : null,
      groups: settings.group_claim ? claimValues(claims[settings.group_claim]) : [],
    };
  },
};
