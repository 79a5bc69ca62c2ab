import { describe, expect, it } from 'vitest';
import { EMPTY_TENANT_FORM, maxUsersOf, payloadOf, validateTenant, type Company, type TenantForm } from './store.ts';

const form = (over: Partial<TenantForm>): TenantForm => ({
  ...EMPTY_TENANT_FORM,
  name: 'Acme',
  email: 'ops@acme.example',
  subdomain: 'acme',
  ...over,
});

describe('tenant form rules (spec section 5)', () => {
  it('defaults: max users 10, colours #007bff and #6c757d, starter plan, active', () => {
    expect(EMPTY_TENANT_FORM).toMatchObject({
      maxUsers: '10',
      primaryColor: '#007bff',
      secondaryColor: '#6c757d',
      plan: 'starter',
      status: 'active',
    });
  });
  it('requires name, email and subdomain', () => {
    expect(validateTenant(EMPTY_TENANT_FORM)).toEqual({
      name: 'Company Name is required',
      email: 'Email is required',
      subdomain: 'Subdomain is required',
    });
  });
  it.each([
    [{ email: 'not-an-email' }, 'email', 'Enter a valid email address'],
    [{ url: 'not a url' }, 'url', 'Website URL must be a valid URL'],
    [{ url: 'ftp://acme.example' }, 'url', 'Website URL must be a valid URL'],
    [{ maxUsers: '0' }, 'maxUsers', 'Max Users must be at least 1'],
    [{ maxUsers: 'abc' }, 'maxUsers', 'Max Users must be at least 1'],
    [{ subdomain: 'Bad_Sub' }, 'subdomain', expect.stringContaining('lowercase')],
  ] as const)('%j -> %s', (over, field, message) => expect(validateTenant(form(over))[field]).toEqual(message));
  it('a valid form has no messages', () => expect(validateTenant(form({ url: 'https://acme.example', phone: '+1 555' }))).toEqual({}));
  it('non-numeric max users becomes 0', () => {
    expect(maxUsersOf('abc')).toBe(0);
    expect(maxUsersOf('12')).toBe(12);
  });
  it('payload: trimmed, empty optional fields null, status drives is_active', () => {
    expect(payloadOf(form({ name: ' Acme ', url: '', phone: '', maxUsers: '5', status: 'inactive', plan: 'enterprise' }))).toEqual({
      name: 'Acme',
      email: 'ops@acme.example',
      subdomain: 'acme',
      url: null,
      phone: null,
      max_users: 5,
      plan: 'enterprise',
      status: 'inactive',
      is_active: false,
      primary_color: '#007bff',
      secondary_color: '#6c757d',
      services: { monitor: true, security: true, data_breach: false },
    });
  });
  it('payload: logos only when new, changed or removed', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    expect(payloadOf(form({ logo: png }))).toMatchObject({ logo_base64: png });
    expect(payloadOf(form({}))).not.toHaveProperty('logo_base64');
    const stored = { id: 'c1', logo_base64: png, horizontal_logo_base64: null } as unknown as Company;
    expect(payloadOf(form({ logo: png }), stored)).not.toHaveProperty('logo_base64'); // unchanged: not sent again
    expect(payloadOf(form({ logo: null }), stored)).toMatchObject({ logo_base64: null }); // removed
    expect(payloadOf(form({ horizontalLogo: png }), stored)).toMatchObject({ horizontal_logo_base64: png });
  });
});
