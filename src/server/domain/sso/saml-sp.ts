// Our side of SAML (the service provider), per company: its entity ID and its Assertion Consumer
// Service address live on the company's host, so an assertion made for one company (its audience
// and recipient) is never one another company's ACS accepts.
export const SAML_ACS_PATH = '/api/v1/auth/sso/saml/acs';
/** The SP entity ID's path (a name, which is also where the metadata says the ACS is) */
export const SAML_ENTITY_PATH = '/api/v1/auth/sso/saml';
export const SAML_METADATA_PATH = '/api/v1/company/sso/saml/metadata';

export interface SamlSp {
  entityId: string;
  acsUrl: string;
}

/** The SP values of the company whose host is `origin` (e.g. https://acme.statuswatch.example). */
export function samlSpOf(origin: string): SamlSp {
  return { entityId: `${origin}${SAML_ENTITY_PATH}`, acsUrl: `${origin}${SAML_ACS_PATH}` };
}
