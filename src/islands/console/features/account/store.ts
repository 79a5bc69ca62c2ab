// The signed-in user's own account (/settings/account): API tokens, two-factor sign-in, the
// password and active sessions. Secrets the server answers once (a new token, the recovery codes) live only in the
// screen's state, never in a store that outlives it.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { loadInto, serverOr } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { t } from '../../i18n.ts';

type S = components['schemas'];
export type ApiToken = S['ApiToken'];
export type CreatedApiToken = S['CreatedApiToken'];
export type TwoFactorStatus = S['TwoFactorStatus'];
export type Enrolment = S['TwoFactorEnrolment'];
export type ActiveSession = S['ActiveSession'];
export type Passkey = S['Passkey'];

export type Outcome<T> = { ok: true; data: T } | { ok: false; text: string; fields: Record<string, string> };

export const $tokens = atom<Load<ApiToken[]>>({ status: 'loading' });
export const $twoFactor = atom<Load<TwoFactorStatus>>({ status: 'loading' });
export const $sessions = atom<Load<ActiveSession[]>>({ status: 'loading' });
export const $passkeys = atom<Load<Passkey[]>>({ status: 'loading' });

export function loadSessions(): Promise<void> {
  return loadInto($sessions, () => api.GET('/api/v1/auth/sessions'), serverOr(t('account.store.failedToLoadYourSessions')));
}

export async function signOutOthers(): Promise<Outcome<unknown>> {
  const r = await outcome(() => api.POST('/api/v1/auth/sessions/sign-out-others'), t('account.store.failedToSignOutThe'));
  await loadSessions();
  return r;
}

export function loadTokens(): Promise<void> {
  return loadInto($tokens, () => api.GET('/api/v1/api-tokens'), serverOr(t('account.store.failedToLoadAPITokens')));
}

export function loadTwoFactor(): Promise<void> {
  return loadInto($twoFactor, () => api.GET('/api/v1/auth/two-factor'), serverOr(t('account.store.failedToLoadTwoFactor')));
}

/** An answer as an outcome: the data, or the server's reason with its per-field messages. */
async function outcome<T>(call: () => Promise<{ data?: T; error?: unknown }>, failed: string): Promise<Outcome<T>> {
  try {
    const { data, error } = await call();
    if (data !== undefined) return { ok: true, data };
    const fields = (error as { errors?: Record<string, string> } | undefined)?.errors ?? {};
    return { ok: false, text: errorText(error, failed), fields };
  } catch (e) {
    return { ok: false, text: errorText(e, failed), fields: {} };
  }
}

export async function createToken(input: { name: string; scope: 'read' | 'write'; expiresOn: string }): Promise<Outcome<CreatedApiToken>> {
  // a date picker's day: the token works through the end of that day, local time
  const expires_at = input.expiresOn ? new Date(`${input.expiresOn}T23:59:59`).toISOString() : null;
  const r = await outcome(
    () => api.POST('/api/v1/api-tokens', { body: { name: input.name.trim(), scope: input.scope, expires_at } }),
    t('account.store.failedToCreateTheToken'),
  );
  if (r.ok) await loadTokens();
  return r;
}

export async function revokeToken(id: string): Promise<Outcome<unknown>> {
  const r = await outcome(
    () => api.DELETE('/api/v1/api-tokens/{id}', { params: { path: { id } } }),
    t('account.store.failedToRevokeTheToken'),
  );
  await loadTokens();
  return r;
}

export function startEnrolment(): Promise<Outcome<Enrolment>> {
  return outcome(() => api.POST('/api/v1/auth/two-factor/start'), t('account.store.failedToStartTwoFactor'));
}

export async function confirmEnrolment(code: string): Promise<Outcome<string[]>> {
  const r = await outcome(
    () => api.POST('/api/v1/auth/two-factor/confirm', { body: { code: code.trim() } }),
    t('account.store.failedToTurnOnTwo'),
  );
  if (r.ok) await loadTwoFactor();
  return r.ok ? { ok: true, data: r.data.recovery_codes } : r;
}

export async function disableTwoFactor(proof: { code?: string; password?: string }): Promise<Outcome<unknown>> {
  const r = await outcome(() => api.POST('/api/v1/auth/two-factor/disable', { body: proof }), t('account.store.failedToTurnOffTwo'));
  if (r.ok) await loadTwoFactor();
  return r;
}

export function changePassword(current: string, next: string): Promise<Outcome<{ message?: string }>> {
  return outcome(
    () => api.POST('/api/v1/auth/change-password', { body: { current_password: current, new_password: next } }),
    t('account.store.failedToChangeThePassword'),
  );
}

export function loadPasskeys(): Promise<void> {
  return loadInto($passkeys, () => api.GET('/api/v1/account/passkeys'), serverOr(t('account.store.failedToLoadYourPasskeys')));
}

/**
 * Adds a passkey: the password again, then the browser's own prompt (the device's screen lock,
 * a security key), then the server verifies the answer. Answers the recovery codes when this is
 * the account's first second factor.
 */
export async function addPasskey(name: string, password: string): Promise<Outcome<{ recovery_codes?: string[] }>> {
  const opts = await outcome(
    () => api.POST('/api/v1/account/passkeys/options', { body: { password } }),
    t('account.store.failedToStartAddingA'),
  );
  if (!opts.ok) return opts;
  let response: unknown;
  try {
    response = await startRegistration({ optionsJSON: opts.data.options as unknown as PublicKeyCredentialCreationOptionsJSON });
  } catch (e) {
    const n = (e as { name?: string; cause?: { name?: string } }).cause?.name ?? (e as { name?: string }).name;
    const text =
      n === 'InvalidStateError'
        ? t('account.store.thisDeviceAlreadyHoldsOne')
        : n === 'NotAllowedError' || n === 'AbortError'
          ? t('account.store.thePasskeyPromptWasClosed')
          : t('account.store.thisBrowserCouldNotCreate', { message: (e as Error).message });
    return { ok: false, text, fields: {} };
  }
  const r = await outcome(
    () =>
      api.POST('/api/v1/account/passkeys', {
        body: {
          challenge_id: opts.data.challenge_id,
          name: name.trim(),
          response: response as { id: string; rawId: string; type: 'public-key'; response: Record<string, unknown> },
        },
      }),
    t('account.store.failedToAddThePasskey'),
  );
  await Promise.all([loadPasskeys(), loadTwoFactor()]);
  return r.ok ? { ok: true, data: { recovery_codes: r.data.recovery_codes } } : r;
}

export async function renamePasskey(id: string, name: string): Promise<Outcome<Passkey>> {
  const r = await outcome(
    () => api.PATCH('/api/v1/account/passkeys/{id}', { params: { path: { id } }, body: { name: name.trim() } }),
    t('account.store.failedToRenameThePasskey'),
  );
  if (r.ok) await loadPasskeys();
  return r;
}

export async function removePasskey(id: string, password: string): Promise<Outcome<unknown>> {
  const r = await outcome(
    () => api.POST('/api/v1/account/passkeys/{id}/remove', { params: { path: { id } }, body: { password } }),
    t('account.store.failedToRemoveThePasskey'),
  );
  if (r.ok) await Promise.all([loadPasskeys(), loadTwoFactor()]);
  return r;
}
