// What the sign-in page says when a single sign-on attempt fails (issue 31). The server sends the
// browser back with ?sso_error=<code>; the page shows the text of the code, so nothing the
// identity provider or a link puts in the address is ever shown as it is.
export const SSO_ERROR_MESSAGES = {
  not_configured: 'Single sign-on is not set up for this company. Sign in with your password, or ask your administrator.',
  unknown_domain: 'No company signs in with single sign-on for this e-mail domain. Sign in with your password.',
  plan: 'Single sign-on is not part of your company’s plan. Sign in with your password, or ask your administrator.',
  provider: 'Your identity provider could not be reached or refused the sign-in. Please try again, or ask your administrator.',
  expired: 'This sign-in link has expired or was already used. Please start again.',
  token: 'The identity provider’s answer could not be verified, so you were not signed in. Please try again, or ask your administrator.',
  email_unverified: 'Your identity provider has not verified your e-mail address, so you were not signed in. Ask your administrator.',
  domain: 'Your e-mail domain is not one this company signs in for with single sign-on. Ask your administrator.',
  other_company: 'This e-mail address belongs to an account of another company, so this company’s identity provider cannot sign it in.',
  full: 'Your company has reached its maximum number of users, so your account could not be created. Ask your administrator to make room.',
  disabled: 'Your account is disabled. Please contact your administrator.',
  throttled: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  unsolicited:
    'Your company does not accept sign-ins started from the identity provider’s dashboard. Use “Sign in with SSO” on this page instead.',
} as const;

export type SsoErrorCode = keyof typeof SSO_ERROR_MESSAGES;

export function ssoErrorMessage(code: string | null | undefined): string | null {
  return code && Object.hasOwn(SSO_ERROR_MESSAGES, code) ? SSO_ERROR_MESSAGES[code as SsoErrorCode] : null;
}

/** What a password sign-in or reset is told when the company requires single sign-on. */
export const SSO_REQUIRED_MESSAGE = 'Your company signs in with single sign-on. Use “Sign in with SSO” instead of a password.';
