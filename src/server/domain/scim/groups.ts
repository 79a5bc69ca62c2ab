// /scim/v2/Groups: the company's groups and their members, as its identity provider pushes them.
// A member must be one of the company's users. Membership of the groups the company admin named
// (settings.ts) sets roles (roles.ts). PATCH is applied to the group as SCIM shows it
// (scim-patch), which reads Okta's `add`/`remove` of `members` and Entra ID's `Add`/`Remove`
// with a `members` value list or a `members[value eq "…"]` path alike; the result is stored by
// the same path as PUT.
import type { ScimPatchOperation } from 'scim-patch';
import type { DbScope } from '../../db/scope.ts';
import { withTransaction } from '../../db/scope.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { scimRepo, type ScimGroupRow } from '../../db/repositories/scim-repo.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { newId } from '../ids.ts';
import { scimAudit, type ScimCaller } from './caller.ts';
import { scimError } from './errors.ts';
import { readPatch } from './patch.ts';
import { equalityFilter, excludes, listResponse, pageOf, type ListQuery } from './query.ts';
import { toScimGroup, type ScimGroup } from './resources.ts';
import { applyRoleGroups, decidesRoles } from './roles.ts';
import { applyPatch } from './users.ts';

type Json = Record<string, unknown>;
const MAX_NAME = 200;
const MAX_MEMBERS = 10_000;

interface DesiredGroup {
  displayName: string;
  externalId: string | null;
  members: string[];
}

function desiredFrom(r: Json): DesiredGroup {
  const displayName = typeof r.displayName === 'string' ? r.displayName.trim() : '';
  if (!displayName) throw scimError('validation', 'displayName is required.', 'invalidValue');
  if (displayName.length > MAX_NAME) throw scimError('validation', `displayName must be at most ${MAX_NAME} characters.`, 'invalidValue');
  const problem = plainTextProblem('displayName', displayName);
  if (problem) throw scimError('validation', problem, 'invalidValue');
  const list = r.members === undefined || r.members === null ? [] : r.members;
  if (!Array.isArray(list)) throw scimError('validation', 'members must be a list of {"value": "<user id>"}.', 'invalidValue');
  if (list.length > MAX_MEMBERS) throw scimError('validation', `A group has at most ${MAX_MEMBERS} members.`, 'invalidValue');
  const members = list.map((m, i) => {
    const v = (m as Json | null)?.value;
    if (typeof v !== 'string' || !v) throw scimError('validation', `members[${i}].value must be a user id.`, 'invalidValue');
    return v;
  });
  const externalId = typeof r.externalId === 'string' && r.externalId.trim() ? r.externalId.trim() : null;
  return { displayName, externalId, members: [...new Set(members)] };
}

async function load(caller: ScimCaller, id: string): Promise<ScimGroupRow> {
  const row = await scimRepo(caller.services.db).findGroup(caller.companyId, id);
  if (!row) throw scimError('not_found', `Group ${id.slice(0, 64)} not found.`);
  return row;
}

/** Refuses a member who is not a user of this company (another company's user is not named as such). */
async function assertMembers(db: DbScope, caller: ScimCaller, ids: string[]): Promise<void> {
  const repo = scimRepo(db);
  for (const id of ids)
    if (!(await repo.findUser(caller.companyId, id)))
      throw scimError('validation', `Member ${id.slice(0, 64)} is not a user of this company.`, 'invalidValue');
}

const taken = (name: string) => scimError('conflict', `A group named ${name} already exists.`, 'uniqueness');

async function view(caller: ScimCaller, row: ScimGroupRow, withMembers = true): Promise<ScimGroup> {
  const members = withMembers ? await scimRepo(caller.services.db).membersOf([row.id]) : null;
  return toScimGroup(row, members, caller.base);
}

export async function listScimGroups(caller: ScimCaller, q: ListQuery) {
  const name = equalityFilter(q.filter, 'displayName');
  const page = pageOf(q);
  const repo = scimRepo(caller.services.db);
  const total = await repo.countGroups(caller.companyId, name);
  const rows =
    page.limit === 0 ? [] : await repo.listGroups(caller.companyId, { offset: page.offset, limit: page.limit, displayName: name });
  const withMembers = !excludes(q, 'members');
  const members = withMembers ? await repo.membersOf(rows.map((r) => r.id)) : [];
  return listResponse(
    rows.map((r) => toScimGroup(r, withMembers ? members.filter((m) => m.group_id === r.id) : null, caller.base)),
    total,
    page,
  );
}

export async function getScimGroup(caller: ScimCaller, id: string, q: ListQuery = {}): Promise<ScimGroup> {
  return view(caller, await load(caller, id), !excludes(q, 'members'));
}

export async function createScimGroup(caller: ScimCaller, body: Json): Promise<ScimGroup> {
  const want = desiredFrom(body);
  const { services } = caller;
  const id = newId();
  const now = services.now();
  try {
    await withTransaction(services.db, async (tx) => {
      const repo = scimRepo(tx);
      if (await repo.findGroupByName(caller.companyId, want.displayName)) throw taken(want.displayName);
      await assertMembers(tx, caller, want.members);
      await repo.insertGroup({
        id,
        company_id: caller.companyId,
        display_name: want.displayName,
        external_id: want.externalId,
        created_at: now,
        updated_at: now,
      });
      for (const m of want.members) await repo.addMember(id, m);
      await scimAudit(tx, caller, 'settings_update', {
        what: 'scim_group_create',
        group_id: id,
        display_name: want.displayName,
        members: want.members,
      });
      if (await decidesRoles(tx, caller.companyId, [want.displayName]))
        await applyRoleGroups(tx, services, {
          companyId: caller.companyId,
          userIds: want.members,
          audit: (db, e, d) => scimAudit(db, caller, e, d),
        });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw taken(want.displayName);
    throw e;
  }
  return getScimGroup(caller, id);
}

async function store(caller: ScimCaller, before: ScimGroupRow, want: DesiredGroup): Promise<ScimGroup> {
  const { services } = caller;
  try {
    await withTransaction(services.db, async (tx) => {
      const repo = scimRepo(tx);
      if (want.displayName !== before.display_name) {
        const other = await repo.findGroupByName(caller.companyId, want.displayName);
        if (other && other.id !== before.id) throw taken(want.displayName);
      }
      const had = new Set((await repo.membersOf([before.id])).map((m) => m.user_id));
      const added = want.members.filter((m) => !had.has(m));
      const removed = [...had].filter((m) => !want.members.includes(m));
      await assertMembers(tx, caller, added);
      await repo.updateGroup(caller.companyId, before.id, {
        display_name: want.displayName,
        external_id: want.externalId,
        updated_at: services.now(),
      });
      for (const m of added) await repo.addMember(before.id, m);
      for (const m of removed) await repo.removeMember(before.id, m);
      await scimAudit(tx, caller, 'settings_update', {
        what: 'scim_group_update',
        group_id: before.id,
        display_name: want.displayName,
        ...(want.displayName !== before.display_name ? { renamed_from: before.display_name } : {}),
        added,
        removed,
      });
      if (await decidesRoles(tx, caller.companyId, [before.display_name, want.displayName])) {
        // a rename into or out of a named group changes every member's role; else only the movers'
        const userIds = want.displayName !== before.display_name ? [...new Set([...had, ...want.members])] : [...added, ...removed];
        await applyRoleGroups(tx, services, { companyId: caller.companyId, userIds, audit: (db, e, d) => scimAudit(db, caller, e, d) });
      }
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw taken(want.displayName);
    throw e;
  }
  return getScimGroup(caller, before.id);
}

export async function replaceScimGroup(caller: ScimCaller, id: string, body: Json): Promise<ScimGroup> {
  const before = await load(caller, id);
  return store(caller, before, desiredFrom(body));
}

export async function patchScimGroup(caller: ScimCaller, id: string, body: Json): Promise<ScimGroup> {
  const before = await load(caller, id);
  const ops = readPatch(body).flatMap(memberRemovalsByValue);
  const current = await view(caller, before);
  // members as a list even when empty, so an `add` of members lands in it
  const patched = applyPatch({ ...current, members: current.members ?? [] }, ops);
  return store(caller, before, desiredFrom(patched));
}

/**
 * Entra ID removes members with `{"op": "Remove", "path": "members", "value": [{"value": "<id>"}]}`,
 * its items carrying `"$ref": null`: scim-patch would remove only items equal in every attribute,
 * so each is rewritten as the filter Okta sends, `members[value eq "<id>"]`, which matches by id.
 */
function memberRemovalsByValue(op: ScimPatchOperation): ScimPatchOperation[] {
  if (op.op !== 'remove' || op.path?.toLowerCase() !== 'members' || !Array.isArray(op.value)) return [op];
  return (op.value as Json[])
    .map((m) => m?.value)
    .filter((v): v is string => typeof v === 'string')
    .map((v) => ({ op: 'remove', path: `members[value eq ${JSON.stringify(v)}]` }));
}

export async function deleteScimGroup(caller: ScimCaller, id: string): Promise<void> {
  const before = await load(caller, id);
  const { services } = caller;
  await withTransaction(services.db, async (tx) => {
    const repo = scimRepo(tx);
    const members = (await repo.membersOf([before.id])).map((m) => m.user_id);
    await repo.deleteGroup(caller.companyId, before.id);
    await scimAudit(tx, caller, 'settings_update', { what: 'scim_group_delete', group_id: before.id, display_name: before.display_name });
    if (await decidesRoles(tx, caller.companyId, [before.display_name]))
      await applyRoleGroups(tx, services, {
        companyId: caller.companyId,
        userIds: members,
        audit: (db, e, d) => scimAudit(db, caller, e, d),
      });
  });
}
