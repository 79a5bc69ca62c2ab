import { describe, expect, it } from 'vitest';
import { createPayload, EMPTY_USER_FORM, typeCompanyAlert, updatePayload, validateUser, withUserType, type UserForm } from './store.ts';

const form = (over: Partial<UserForm>): UserForm => ({
  ...EMPTY_USER_FORM,
  name: 'Ann',
  email: 'ann@example.com',
  password: 'pw',
  userType: '2',
  companyId: 'c1',
  ...over,
});

describe('user form rules (spec section 5)', () => {
  it('requires name, email, password on create and a user type', () => {
    expect(validateUser(EMPTY_USER_FORM, true)).toEqual({
      name: 'Full Name is required',
      email: 'Email is required',
      password: 'Password is required',
      userType: 'User Type is required',
    });
  });
  it('the password is optional when editing', () => expect(validateUser(form({ password: '' }), false)).toEqual({}));
  it('rejects a malformed email', () => expect(validateUser(form({ email: 'nope' }), true).email).toBe('Enter a valid email address'));
  it('company required for types 2 and 3', () => {
    expect(validateUser(form({ userType: '3', companyId: '' }), true).companyId).toBe('Company is required');
    expect(validateUser(form({ userType: '1', companyId: '' }), true).companyId).toBeUndefined();
  });
  it.each([
    [form({ userType: '1', companyId: 'c1' }), 'Super admin users should not be assigned to a specific company'],
    [form({ userType: '2', companyId: '' }), 'Company admin and user/viewer must be assigned to a company'],
    [form({ userType: '3', companyId: '' }), 'Company admin and user/viewer must be assigned to a company'],
    [form({ userType: '2', companyId: 'c1' }), null],
    [form({ userType: '1', companyId: '' }), null],
  ])('submit alert %#', (f, alert) => expect(typeCompanyAlert(f)).toBe(alert));
  it('choosing type 1 clears the company; other types keep it', () => {
    expect(withUserType(form({ companyId: 'c1' }), '1').companyId).toBe('');
    expect(withUserType(form({ companyId: 'c1' }), '3').companyId).toBe('c1');
  });
  it('create payload: name (not full_name), company_id left out for type 1', () => {
    expect(createPayload(form({}))).toEqual({
      name: 'Ann',
      email: 'ann@example.com',
      password: 'pw',
      user_type: '2',
      company_id: 'c1',
      is_active: true,
    });
    expect(createPayload(form({ userType: '1', companyId: '' }))).not.toHaveProperty('company_id');
  });
  it('update payload never carries the password', () => {
    const p = updatePayload(form({ password: 'typed anyway' }));
    expect(p).not.toHaveProperty('password');
    expect(p).toEqual({ name: 'Ann', email: 'ann@example.com', user_type: '2', company_id: 'c1', is_active: true });
    expect(updatePayload(form({ userType: '1', companyId: 'c1' }))).not.toHaveProperty('company_id');
  });
});
