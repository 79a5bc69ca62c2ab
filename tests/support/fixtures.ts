// Test data written straight through the repositories (fast, no HTTP), and the Actor a
// service test acts as. API tests sign in through the real login call instead (signIn).
import type { Services, Actor, Ctx } from '../../src/server/domain/context.ts';
import { companiesRepo } from '../../src/server/db/repositories/companies-repo.ts';
import { usersRepo } from '../../src/server/db/repositories/users-repo.ts';
import { hashPassword } from '../../src/server/domain/auth/password.ts';
import { roleOfUserType } from '../../src/lib/permissions.ts';
import { newId } from '../../src/server/domain/ids.ts';
import type { ApiClient } from './test-app.ts';

export const TEST_PASSWORD = 'Test-password-1';
let passwordHash: Promise<string> | undefined;

export async function seedCompany(
  services: Services,
  over: Partial<{ name: string; subdomain: string; plan: string; is_active: boolean; max_users: number }> = {},
) {
  const id = newId();
  const now = services.now();
  const subdomain = over.subdomain ?? `co${id.slice(0, 8)}`;
  await companiesRepo(services.db).insert({
    id,
    name: over.name ?? `Company ${subdomain}`,
    email: `contact@${subdomain}.example.com`,
    subdomain,
    slug: subdomain,
    plan: over.plan ?? 'starter',
    is_active: over.is_active ?? true,
    max_users: over.max_users ?? 10,
    created_at: now,
    updated_at: now,
  });
  return { id, subdomain };
}

export async function seedUser(
  services: Services,
  over: { userType: 1 | 2 | 3; companyId?: string | null; email?: string; fullName?: string; isActive?: boolean },
) {
  const id = newId();
  const now = services.now();
  const email = over.email ?? `user-${id.slice(0, 8)}@example.com`;
  passwordHash ??= hashPassword(TEST_PASSWORD);
  await usersRepo(services.db).insert({
    id,
    email,
    full_name: over.fullName ?? 'Test User',
    user_type: over.userType,
    company_id: over.userType === 1 ? null : (over.companyId ?? null),
    is_active: over.isActive !== false,
    password_hash: await passwordHash,
    session_version: 1,
    created_at: now,
    updated_at: now,
  });
  return { id, email, password: TEST_PASSWORD, userType: over.userType, companyId: over.userType === 1 ? null : (over.companyId ?? null) };
}

export function actorFor(user: { id: string; email: string; userType: 1 | 2 | 3; companyId: string | null }): Actor {
  const now = Math.floor(Date.now() / 1000);
  return {
    userId: user.id,
    email: user.email,
    fullName: 'Test User',
    userType: user.userType,
    role: roleOfUserType(user.userType)!,
    companyId: user.companyId,
    sessionId: 'test-session',
    iat: now,
    exp: now + 900,
  };
}

export function ctxFor(services: Services, actor: Actor | null, host = 'localhost'): Ctx {
  return { services, actor, host, ip: '127.0.0.1', userAgent: 'vitest' };
}

/** Signs a client in through the real login call (cookies land in the client's jar). */
export async function signIn(client: ApiClient, user: { email: string; password: string }, host?: string) {
  const r = await client.post('/api/v1/auth/login', { email: user.email, password: user.password }, host ? { host } : {});
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.text}`);
  return r;
}
