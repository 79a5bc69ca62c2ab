// An IdP's SAML metadata XML, pasted on the settings screen, read for the three values the
// sign-in needs: its entity ID, its HTTP-Redirect SingleSignOnService address and its signing
// certificates. Parsed with @xmldom/xmldom (the parser node-saml uses); no network, no DTDs.
import { DOMParser } from '@xmldom/xmldom';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export interface IdpMetadata {
  entityId: string | null;
  ssoUrl: string | null;
  /** base64 bodies of the signing certificates */
  certs: string[];
}

type El = {
  getAttribute(n: string): string | null;
  getElementsByTagNameNS(ns: string, n: string): ArrayLike<El>;
  textContent: string | null;
  parentNode: unknown;
};

/** The values of the metadata, or null when it is not SAML IdP metadata. */
export function readIdpMetadata(xml: string): IdpMetadata | null {
  if (/<!DOCTYPE/i.test(xml)) return null;
  let doc: { documentElement: El | null; getElementsByTagNameNS(ns: string, n: string): ArrayLike<El> };
  let broken = false;
  try {
    doc = new DOMParser({
      errorHandler: {
        warning: () => {},
        error: () => {
          broken = true;
        },
        fatalError: () => {
          broken = true;
        },
      },
    }).parseFromString(xml, 'text/xml') as unknown as typeof doc;
  } catch {
    return null;
  }
  if (broken || !doc.documentElement) return null;
  const idp = Array.from(doc.getElementsByTagNameNS(MD, 'IDPSSODescriptor'))[0];
  if (!idp) return null;
  const entity = Array.from(doc.getElementsByTagNameNS(MD, 'EntityDescriptor'))[0];
  const sso = Array.from(idp.getElementsByTagNameNS(MD, 'SingleSignOnService')).find((e) => e.getAttribute('Binding') === REDIRECT);
  const certs = Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))
    .filter((k) => {
      const use = k.getAttribute('use');
      return !use || use === 'signing';
    })
    .flatMap((k) => Array.from(k.getElementsByTagNameNS(DS, 'X509Certificate')))
    .map((c) => (c.textContent ?? '').replace(/\s+/g, ''))
    .filter(Boolean);
  return {
    entityId: entity?.getAttribute('entityID') || null,
    ssoUrl: sso?.getAttribute('Location') || null,
    certs: [...new Set(certs)],
  };
}
