// The signed-in user (spec section 4, "Auth"): loading, then authenticated or unauthenticated.
import { atom, computed } from 'nanostores';
import { roleOfUserType, type Role } from '../../../lib/permissions.ts';
import { api, detailOr } from '../api.ts';
import { boot, type CurrentUser } from '../boot.ts';
import { clearAuditSession } from './audit.ts';
import { startAuthentication, type AuthenticationResponseJSON, type PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';

export type AuthState = 'loading' | 'authenticated' | 'unauthenticated';

export const $user = atom<CurrentUser | null>(null);
export const $authState = atom<AuthState>('loading');
export const $role = computed($user, (u): Role | null => (u ? (u.role ?? roleOfUserType(u.user_type)) : null));

const USER_KEY = 'sw_user';
export const TENANT_KEY = 'sw_selected_tenant';

function remember(user: CurrentUser | null): void {
  try {
    if (user) localStorage.setItem(USER_KEY, JSON.stringify({ id: user.id, email: user.email, user_type: user.user_type }));
    else localStorage.removeItem(USER_KEY);
  } catch {
    /* storage unavailable */
  }
}

function setUser(user: CurrentUser | null): void {
  $user.set(user);
  $authState.set(user ? 'authenticated' : 'unauthenticated');
  remember(user);
}

/** At start: a user the server already knows is taken as is; on a public page nothing loads; otherwise /me. */
export async function startAuth(loadOnPublic: boolean): Promise<void> {
  const known = boot().user;
  if (known) return setUser(known);
  if (!loadOnPublic) return setUser(null);
  await refreshUser();
}

export async function refreshUser(): Promise<CurrentUser | null> {
  try {
    const { data } = await api.GET('/api/v1/auth/me');
    setUser(data ?? null);
    return data ?? null;
  } catch {
    setUser(null);
    return null;
  }
}

export interface SignInResult {
  error?: string;
  user?: CurrentUser;
  redirectTo?: string;
  /** the password was right and the account has two-factor sign-in: ask for a code */
  needsCode?: boolean;
  /** the password was right and the account has a passkey: offer it as the second step */
  needsPasskey?: boolean;
}

/** A passkey's answer to a challenge of the server, for /auth/passkey or as the login's second factor. */
export interface PasskeyAnswer {
  challenge_id: string;
  response: AuthenticationResponseJSON;
}

const PASSKEY_CANCELLED = 'The passkey prompt was closed or timed out. Try again, or sign in another way.';

/**
 * Asks the browser for a passkey of this site. `autofill`: conditional UI (the passkeys appear
 * among the email field's suggestions; the promise waits until one is picked). null when the
 * person closed the prompt or a newer ceremony replaced this one.
 */
export async function askPasskey(autofill = false): Promise<{ answer?: PasskeyAnswer; error?: string }> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/passkey/options');
    if (!data) return { error: detailOr(error, 'Passkey sign-in is not available right now.') };
    const response = await startAuthentication({
      optionsJSON: data.options as unknown as PublicKeyCredentialRequestOptionsJSON,
      useBrowserAutofill: autofill,
    });
    return { answer: { challenge_id: data.challenge_id, response } };
  } catch (e) {
    const name = (e as { name?: string; cause?: { name?: string } }).cause?.name ?? (e as { name?: string }).name;
    if (autofill || name === 'AbortError') return {};
    return { error: name === 'NotAllowedError' ? PASSKEY_CANCELLED : detailOr(e, PASSKEY_CANCELLED) };
  }
}

/** The password-less sign-in: the passkey alone. */
export async function signInWithPasskey(answer: PasskeyAnswer, rememberMe: boolean, fallbackError: string): Promise<SignInResult> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/passkey', {
      body: {
        challenge_id: answer.challenge_id,
        response: answer.response as unknown as { id: string; rawId: string; type: 'public-key'; response: Record<string, unknown> },
        remember: rememberMe,
      },
    });
    if (!data) return { error: detailOr(error, fallbackError) };
    const me = (await api.GET('/api/v1/auth/me').catch(() => null))?.data ?? data.user;
    setUser(me);
    return { user: me, redirectTo: data.redirect_to };
  } catch (e) {
    return { error: detailOr(e, fallbackError) };
  }
}

/** The second step of signing in, when the server asks for it. */
export interface SecondFactor {
  totp_code?: string;
  recovery_code?: string;
  passkey?: PasskeyAnswer;
}

export async function signIn(
  email: string,
  password: string,
  rememberMe: boolean,
  fallbackError: string,
  second: SecondFactor = {},
): Promise<SignInResult> {
  try {
    const { passkey, ...codes } = second;
    const body = {
      email,
      password,
      remember: rememberMe,
      ...codes,
      ...(passkey
        ? {
            passkey: {
              challenge_id: passkey.challenge_id,
              response: passkey.response as unknown as { id: string; rawId: string; type: 'public-key'; response: Record<string, unknown> },
            },
          }
        : {}),
    };
    const { data, error } = await api.POST('/api/v1/auth/login', { body });
    if (!data) {
      const fields = (error as { errors?: Record<string, string> } | undefined)?.errors;
      return {
        error: detailOr(error, fallbackError),
        needsCode: !!(fields?.totp_code || fields?.recovery_code),
        needsPasskey: !!fields?.passkey,
      };
    }
    // "after success the user is fetched"
    const me = (await api.GET('/api/v1/auth/me').catch(() => null))?.data ?? data.user;
    setUser(me);
    return { user: me, redirectTo: data.redirect_to };
  } catch (e) {
    return { error: detailOr(e, fallbackError) };
  }
}

export async function signOut(): Promise<void> {
  await api.POST('/api/v1/auth/logout').catch(() => undefined);
  try {
    localStorage.removeItem(TENANT_KEY);
  } catch {
    /* storage unavailable */
  }
  clearAuditSession();
  remember(null);
  // a full page load drops everything held in memory; no client-side redirect races it
  window.location.assign('/login');
}
