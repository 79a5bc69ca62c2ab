import { describe, expect, it } from 'vitest';
import { originsOf, settingsCompanyId, validateProfile, type ProfileForm } from './store.ts';

const form: ProfileForm = {
  name: 'Acme',
  url: '',
  phone: '',
  primaryColor: '#007bff',
  secondaryColor: '#6c757d',
  logo: null,
  horizontalLogo: null,
};

describe('settings store', () => {
  it('works on a company user’s own company, and on the super admin’s chosen one only', () => {
    expect(settingsCompanyId('customer_admin', 'c1', 'c2')).toBe('c1');
    expect(settingsCompanyId('super_admin', null, 'c2')).toBe('c2');
    expect(settingsCompanyId('super_admin', null, null)).toBeNull();
    expect(settingsCompanyId('customer_admin', null, null)).toBeNull();
  });

  it('reads allowed origins one a line, or separated by commas or spaces', () => {
    expect(originsOf(' https://a.example.com\n\nhttps://b.example.com:8443, http://localhost:3000 ')).toEqual([
      'https://a.example.com',
      'https://b.example.com:8443',
      'http://localhost:3000',
    ]);
    expect(originsOf('  \n ')).toEqual([]);
  });

  it('checks the profile as the server does before sending', () => {
    expect(validateProfile(form)).toEqual({});
    expect(validateProfile({ ...form, name: ' ', url: 'ftp://x', primaryColor: 'red' })).toEqual({
      name: 'Company Name is required.',
      url: 'Website URL must be a valid URL, for example https://example.com.',
      primaryColor: 'Colour must be #rrggbb',
    });
  });
});
