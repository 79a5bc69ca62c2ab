import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';
import { tempDir } from '../../tests/support/test-db.ts';

const base = () => ({ DATA_DIR: tempDir() });

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = parseConfig(base());
    expect(c.port).toBe(4321);
    expect(c.host).toBe('127.0.0.1');
    expect(c.databaseKind).toBe('sqlite');
    expect(c.productDomain).toBe('localhost');
    expect(c.sessionSecret.length).toBeGreaterThanOrEqual(43);
  });

  it('keeps the generated secret across restarts', () => {
    const env = base();
    expect(parseConfig(env).sessionSecret).toBe(parseConfig(env).sessionSecret);
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid PORT="abc": expected a whole number from 0 to 65535'],
    [{ PORT: '70000' }, 'Invalid PORT="70000"'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid DATABASE_URL="mysql://x": expected unset (SQLite file in DATA_DIR) or a postgres:// URL'],
    [{ PRODUCT_DOMAIN: 'not a domain' }, 'Invalid PRODUCT_DOMAIN'],
    [{ NODE_ENV: 'staging' }, 'Invalid NODE_ENV="staging": expected one of development, production, test'],
    [{ NODE_ENV: 'production' }, 'Invalid SESSION_SECRET=""'],
    [{ NODE_ENV: 'production', SESSION_SECRET: 'changeme' }, 'Invalid SESSION_SECRET'],
    [{ ADMIN_EMAIL: 'root@example.com' }, 'Invalid ADMIN_PASSWORD'],
    [{ ALLOW_PRIVATE_TARGETS: 'maybe' }, 'Invalid ALLOW_PRIVATE_TARGETS="maybe": expected true or false'],
  ])('refuses %j with a clear message', (env, message) => {
    expect(() => parseConfig({ ...base(), ...env })).toThrow(ConfigError);
    expect(() => parseConfig({ ...base(), ...env })).toThrow(message);
  });

  it('accepts a strong production secret and postgres URL', () => {
    const c = parseConfig({ ...base(), NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), DATABASE_URL: 'postgres://u@h/db' });
    expect(c.databaseKind).toBe('postgres');
    expect(c.publicScheme).toBe('https');
  });
});
