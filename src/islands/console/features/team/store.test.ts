import { describe, expect, it } from 'vitest';
import { membersOf, validateInvite, type Invitation, type User } from './store.ts';

const user = (over: Partial<User>): User => ({
  id: 'u1',
  email: 'ann@example.com',
  full_name: 'Ann',
  user_type: '3',
  company_id: 'c1',
  company_name: 'Acme',
  is_active: true,
  created_at: '2026-01-01T00:00:00.000Z',
  last_sign_in_at: null,
  ...over,
});
const invitation = (over: Partial<Invitation>): Invitation => ({
  id: 'i1',
  email: 'ivy@example.com',
  full_name: 'Ivy',
  user_type: '2',
  company_id: 'c1',
  company_name: 'Acme',
  status: 'invited',
  created_at: '2026-01-01T00:00:00.000Z',
  sent_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2026-01-08T00:00:00.000Z',
  ...over,
});

describe('team list', () => {
  it('puts invitations first, then users, each with its status', () => {
    const rows = membersOf(
      [user({ id: 'a' }), user({ id: 'b', is_active: false })],
      [invitation({ id: 'x' }), invitation({ id: 'y', status: 'expired' })],
    );
    expect(rows.map((r) => [r.kind, r.status])).toEqual([
      ['invitation', 'invited'],
      ['invitation', 'expired'],
      ['user', 'active'],
      ['user', 'deactivated'],
    ]);
    // an invitation's row key never collides with a user's id
    expect(new Set(rows.map((r) => r.id)).size).toBe(4);
  });
  it('an invitation needs a name, a valid email and a company', () => {
    expect(validateInvite({ name: ' ', email: 'nope', companyId: '', userType: '3' })).toEqual({
      name: 'Full Name is required',
      email: 'Enter a valid email address',
      companyId: 'Company is required',
    });
    expect(validateInvite({ name: 'Ivy', email: 'ivy@example.com', companyId: 'c1', userType: '2' })).toEqual({});
  });
});
