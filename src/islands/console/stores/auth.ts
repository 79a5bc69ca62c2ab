// The signed-in user (spec section 4, "Auth"): loading, then authenticated or unauthenticated.
import { atom, computed } from 'nanostores';
import { roleOfUserType, type Role } from '../../../lib/permissions.ts';
import { api, detailOr } from '../api.ts';
import { boot, type CurrentUser } from '../boot.ts';
import { clearAuditSession } from './audit.ts';

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
}

/** The second step of signing in, when the server asks for it. */
export interface SecondFactor {
  totp_code?: string;
  recovery_code?: string;
}

export async function signIn(
  email: string,
  password: string,
  rememberMe: boolean,
  fallbackError: string,
  second: SecondFactor = {},
): Promise<SignInResult> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/login', { body: { email, password, remember: rememberMe, ...second } });
    if (!data) {
      const fields = (error as { errors?: Record<string, string> } | undefined)?.errors;
      return { error: detailOr(error, fallbackError), needsCode: !!(fields?.totp_code || fields?.recovery_code) };
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
