// /scim/v2/Users: the company's people as its identity provider sees them. Only the token's
// company's users are listed or touched (another company's user id is 404, as if it did not
// exist). Creation is within the company's max_users; deactivation (`active: false`) ends the
// user's sessions and revokes their API tokens, reactivation lets them sign in again; DELETE
// removes the user. PATCH applies the operations (scim-patch, the way Okta and Entra ID send
// them) to the user as SCIM shows it, then stores what changed, so PUT and PATCH share one path.
import { scimPatch, type ScimPatchOperation } from 'scim-patch';
import { isEmail } from '../../../lib/formats.ts';
import { newId } from '../ids.ts';
import { withTransaction } from '../../db/scope.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { apiTokensRepo } from '../../db/repositories/api-tokens-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { scimRepo, type ScimUserRow } from '../../db/repositories/scim-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { hashPassword } from '../auth/password.ts';
import { endUserSessions } from '../auth/sessions.ts';
import { passwordProblem } from '../users/rules.ts';
import { scimAudit, type ScimCaller } from './caller.ts';
import { scimError, type ScimType } from './errors.ts';
import { readPatch } from './patch.ts';
import { equalityFilter, listResponse, pageOf, type ListQuery } from './query.ts';
import { toScimUser, type ScimUser } from './resources.ts';
import { VIEWER_TYPE } from './roles.ts';

/** Stored instead of a hash for people who have no password here (they sign in by single sign-on or set one by "Forgot password"): argon2 verifies nothing against it. */
const NO_PASSWORD = '!scim';
const MAX_NAME = 200;

type Json = Record<string, unknown>;

interface DesiredUser {
  email: string;
  fullName: string;
  givenName: string | null;
  familyName: string | null;
  externalId: string | null;
  active: boolean;
  password: string | null;
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** `active` as Okta (a boolean) and Entra ID (the string "True" or "False") send it. */
function activeOf(v: unknown, fallback: boolean): boolean {
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
  throw scimError('validation', 'active must be true or false.', 'invalidValue');
}

function workEmail(r: Json): string | null {
  const emails = Array.isArray(r.emails) ? (r.emails as Json[]) : [];
  const pick = emails.find((e) => e?.type === 'work') ?? emails.find((e) => e?.primary === true) ?? emails[0];
  return text(pick?.value);
}

/**
 * What the resource (as sent, or as patched) asks for, against the user as they are (`before`,
 * null when creating). userName is the e-mail: a changed work e-mail changes it too.
 */
function desiredFrom(r: Json, before: ScimUser | null): DesiredUser {
  const userName = text(r.userName);
  let email = userName?.toLowerCase() ?? null;
  if (before && email === before.userName) {
    const work = workEmail(r)?.toLowerCase();
    if (work && work !== before.userName) email = work;
  }
  if (!email) throw scimError('validation', 'userName is required: the e-mail address the person signs in with.', 'invalidValue');
  if (!isEmail(email))
    throw scimError('validation', `userName must be an e-mail address: "${email.slice(0, 100)}" is not one.`, 'invalidValue');
  const name = (typeof r.name === 'object' && r.name !== null ? r.name : {}) as Json;
  const givenName = text(name.givenName);
  const familyName = text(name.familyName);
  const joined = [givenName, familyName].filter(Boolean).join(' ');
  const displayName = text(r.displayName);
  let fullName: string;
  if (!before) fullName = displayName ?? text(name.formatted) ?? (joined || email);
  else if (displayName && displayName !== before.displayName) fullName = displayName;
  else if (joined && (givenName !== (before.name.givenName ?? null) || familyName !== (before.name.familyName ?? null))) fullName = joined;
  else if (text(name.formatted) && text(name.formatted) !== before.name.formatted) fullName = text(name.formatted)!;
  else fullName = before.displayName;
  for (const [field, value] of [
    ['displayName', fullName],
    ['name.givenName', givenName],
    ['name.familyName', familyName],
  ] as const)
    if (value && value.length > MAX_NAME) throw scimError('validation', `${field} must be at most ${MAX_NAME} characters.`, 'invalidValue');
  const password = r.password === undefined || r.password === null ? null : String(r.password);
  if (password !== null) {
    const problem = passwordProblem(password);
    if (problem) throw scimError('validation', `password: ${problem}`, 'invalidValue');
  }
  return {
    email,
    fullName,
    givenName,
    familyName,
    externalId: text(r.externalId),
    active: activeOf(r.active, before?.active ?? true),
    password,
  };
}

async function load(caller: ScimCaller, id: string): Promise<ScimUserRow> {
  const row = await scimRepo(caller.services.db).findUser(caller.companyId, id);
  if (!row) throw scimError('not_found', `User ${id.slice(0, 64)} not found.`);
  return row;
}

const taken = (email: string) => scimError('conflict', `A user with userName ${email} already exists.`, 'uniqueness');

export async function listScimUsers(caller: ScimCaller, q: ListQuery) {
  const email = equalityFilter(q.filter, 'userName');
  const page = pageOf(q);
  const repo = scimRepo(caller.services.db);
  const total = await repo.countUsers(caller.companyId, email);
  const rows = page.limit === 0 ? [] : await repo.listUsers(caller.companyId, { offset: page.offset, limit: page.limit, email });
  return listResponse(
    rows.map((r) => toScimUser(r, caller.base)),
    total,
    page,
  );
}

export async function getScimUser(caller: ScimCaller, id: string): Promise<ScimUser> {
  return toScimUser(await load(caller, id), caller.base);
}

export async function createScimUser(caller: ScimCaller, body: Json): Promise<ScimUser> {
  const want = desiredFrom(body, null);
  const { services } = caller;
  if (await usersRepo(services.db).findByEmail(want.email)) throw taken(want.email);
  const passwordHash = want.password ? await hashPassword(want.password) : NO_PASSWORD;
  const now = services.now();
  const id = newId();
  try {
    await withTransaction(services.db, async (tx) => {
      // the company row is locked meanwhile, so two creations cannot both take the last place
      const company = await companiesRepo(tx).lockById(caller.companyId);
      const users = await usersRepo(tx).countByCompany(caller.companyId);
      if (company && users >= company.max_users)
        throw scimError(
          'validation',
          `${company.name} already has its maximum of ${company.max_users} user${company.max_users === 1 ? '' : 's'} (deactivated users count). Ask your StatusWatch operator to raise Max Users, or delete users who left.`,
        );
      await usersRepo(tx).insert({
        id,
        email: want.email,
        full_name: want.fullName,
        user_type: VIEWER_TYPE,
        company_id: caller.companyId,
        is_active: want.active,
        password_hash: passwordHash,
        session_version: 1,
        created_at: now,
        updated_at: now,
      });
      await scimRepo(tx).saveUserExtras({
        user_id: id,
        company_id: caller.companyId,
        external_id: want.externalId,
        given_name: want.givenName,
        family_name: want.familyName,
        updated_at: now,
      });
      await scimAudit(tx, caller, 'user_create', { user_id: id, email: want.email, user_type: VIEWER_TYPE, active: want.active });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw taken(want.email);
    throw e;
  }
  return getScimUser(caller, id);
}

async function store(caller: ScimCaller, before: ScimUserRow, want: DesiredUser): Promise<ScimUser> {
  const { services } = caller;
  if (want.email !== before.email) {
    const other = await usersRepo(services.db).findByEmail(want.email);
    if (other && other.id !== before.id) throw taken(want.email);
  }
  const passwordHash = want.password ? await hashPassword(want.password) : null;
  const now = services.now();
  const deactivated = before.is_active && !want.active;
  const changed: Record<string, unknown> = {};
  if (want.email !== before.email) changed.email = want.email;
  if (want.fullName !== before.full_name) changed.full_name = want.fullName;
  if (want.active !== before.is_active) changed.active = want.active;
  if (passwordHash) changed.password = 'set';
  try {
    await withTransaction(services.db, async (tx) => {
      await usersRepo(tx).update(before.id, {
        email: want.email,
        full_name: want.fullName,
        is_active: want.active,
        ...(passwordHash ? { password_hash: passwordHash } : {}),
        updated_at: now,
      });
      await scimRepo(tx).saveUserExtras({
        user_id: before.id,
        company_id: caller.companyId,
        external_id: want.externalId,
        given_name: want.givenName,
        family_name: want.familyName,
        updated_at: now,
      });
      // Whoever the IdP turned off is out at once: their sessions end and their scripts' tokens
      // stop (revoked, so reactivation does not bring old tokens back). A new e-mail or password
      // ends the sessions too, as it does when changed in the console.
      if (deactivated || changed.email || passwordHash) await endUserSessions(services, before.id, tx);
      if (deactivated) changed.api_tokens_revoked = await apiTokensRepo(tx).revokeAllForUser(before.id, now);
      await scimAudit(tx, caller, 'user_update', { user_id: before.id, is_active: want.active, changed });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw taken(want.email);
    throw e;
  }
  return getScimUser(caller, before.id);
}

export async function replaceScimUser(caller: ScimCaller, id: string, body: Json): Promise<ScimUser> {
  const before = await load(caller, id);
  return store(caller, before, desiredFrom(body, toScimUser(before, caller.base)));
}

export async function patchScimUser(caller: ScimCaller, id: string, body: Json): Promise<ScimUser> {
  const before = await load(caller, id);
  const current = toScimUser(before, caller.base);
  const ops: ScimPatchOperation[] = readPatch(body);
  const patched = applyPatch(current, ops);
  return store(caller, before, desiredFrom(patched, current));
}

export async function deleteScimUser(caller: ScimCaller, id: string): Promise<void> {
  const before = await load(caller, id);
  await withTransaction(caller.services.db, async (tx) => {
    await usersRepo(tx).delete(before.id);
    await scimAudit(tx, caller, 'user_delete', { user_id: before.id, email: before.email, user_type: before.user_type });
  });
}

const SCIM_TYPES = new Set(['invalidSyntax', 'invalidPath', 'noTarget', 'invalidValue', 'mutability']);

/** Applies PATCH operations to a resource as SCIM shows it; scim-patch's refusals keep their scimType. */
export function applyPatch<T extends { meta: unknown; schemas: string[] }>(resource: T, ops: ScimPatchOperation[]): Json {
  try {
    return scimPatch(structuredClone(resource) as never, ops, { mutateDocument: true, treatMissingAsAdd: true }) as unknown as Json;
  } catch (e) {
    const code = String((e as { scimCode?: unknown }).scimCode ?? '');
    const detail = (e as Error).message || 'The PATCH operations could not be applied.';
    throw scimError('validation', detail, (SCIM_TYPES.has(code) ? code : 'invalidValue') as ScimType);
  }
}
