// The sign-in protocols a company's SSO may use, one module each: SAML adds its entry here.
import { oidcProtocol } from './oidc.ts';
import { samlProtocol } from './saml.ts';
import type { SsoProtocol, SsoProtocolName } from './protocol.ts';

export const SSO_PROTOCOLS: Record<SsoProtocolName, SsoProtocol> = { oidc: oidcProtocol, saml: samlProtocol };
