// The sign-in screens' own state: the tenant-branded login's public status list, and the
// signup, unlock, invitation and after-sign-in calls.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, detailOr, errorText } from '../../api.ts';
import type { Load } from '../../ui/load.ts';
import { t } from '../../i18n.ts';

export type LoginMonitor = components['schemas']['LoginMonitor'];

export const $publicMonitors = atom<Load<LoginMonitor[]>>({ status: 'loading' });
export const $companyMissing = atom(false);

export async function loadPublicMonitors(subdomain: string): Promise<void> {
  $publicMonitors.set({ status: 'loading' });
  try {
    const { data, error, response } = await api.GET('/api/v1/public/public-status/{subdomain}', { params: { path: { subdomain } } });
    if (response.status === 404) $companyMissing.set(true);
    // A private status page lists nothing here, not even to say how many monitors it has.
    if (response.status === 401 || response.status === 403)
      return $publicMonitors.set({ status: 'error', message: t('auth.store.thisStatusPageIsPrivate') });
    $publicMonitors.set(
      data
        ? { status: 'ready', data: data.public_monitors }
        : { status: 'error', message: errorText(error, t('auth.store.failedToLoadStatus')) },
    );
  } catch (e) {
    $publicMonitors.set({ status: 'error', message: errorText(e, t('auth.store.failedToLoadStatus')) });
  }
}

export interface SignupForm {
  name: string;
  company_name: string;
  subdomain: string;
  email: string;
  password: string;
}

export async function signUp(form: SignupForm): Promise<{ ok: boolean; message: string; fields?: Record<string, string> }> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/signup', { body: form });
    if (data) return { ok: true, message: data.message ?? t('auth.store.checkYourEMailTo') };
    const fields = (error as { errors?: Record<string, string> } | undefined)?.errors;
    return { ok: false, message: detailOr(error, t('auth.store.signupFailed')), fields };
  } catch (e) {
    return { ok: false, message: detailOr(e, t('auth.store.signupFailed')) };
  }
}

/** Opens the link from the signup mail: the account is created, and signing in comes next. */
export async function confirmSignup(token: string): Promise<{ ok: boolean; message: string; loginUrl?: string; redirectTo?: string }> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/signup/verify', { body: { token } });
    if (data) return { ok: true, message: data.message, loginUrl: data.login_url, redirectTo: data.redirect_to };
    return { ok: false, message: detailOr(error, t('auth.store.failedToCreateTheAccount')) };
  } catch (e) {
    return { ok: false, message: detailOr(e, t('auth.store.failedToCreateTheAccount')) };
  }
}

/** Opens the unlock link mailed during a sign-in attack: this browser's address may sign in. */
export async function unlockSignIn(token: string): Promise<{ ok: boolean; message: string }> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/unlock', { body: { token } });
    if (data) return { ok: true, message: data.message ?? t('auth.store.signInIsUnlockedFor') };
    return { ok: false, message: detailOr(error, t('auth.store.failedToUnlockSignIn')) };
  } catch (e) {
    return { ok: false, message: detailOr(e, t('auth.store.failedToUnlockSignIn')) };
  }
}

/**
 * After signing in on the main site without a company in the answer: the user's company's
 * subdomain (to send them there), or null when there is none or the call fails.
 */
export async function ownCompanySubdomain(): Promise<string | null> {
  const company = await api.GET('/api/v1/company/fetch-company').catch(() => null);
  return company?.data?.subdomain ?? company?.data?.company?.subdomain ?? null;
}

export type InvitationLookup = components['schemas']['InvitationLookup'];

/** Who an invitation link is for, or the server's reason it cannot be used (else `invalid`). */
export async function lookupInvitation(token: string, invalid: string): Promise<{ invitation: InvitationLookup } | { refused: string }> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/invitation', { body: { token } });
    return data ? { invitation: data } : { refused: errorText(error, invalid) };
  } catch (e) {
    return { refused: errorText(e, invalid) };
  }
}

/** Sets the invitee's password: the server's confirmation, or the reason it failed. */
export async function acceptInvitation(token: string, password: string): Promise<{ ok: boolean; message: string }> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/invitation/accept', { body: { token, password } });
    if (data) return { ok: true, message: data.message ?? t('auth.store.yourPasswordIsSetYou') };
    return { ok: false, message: errorText(error, t('auth.store.failedToSetThePassword')) };
  } catch (e) {
    return { ok: false, message: errorText(e, t('auth.store.failedToSetThePassword')) };
  }
}
