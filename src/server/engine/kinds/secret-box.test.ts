import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config.ts';
import { monitorSecretsKey, open, openSecrets, seal, sealSecrets, UNREADABLE_SECRET } from './secret-box.ts';

const SESSION = 'a7Kq2pX9vLm4Rt8wZc1Nf6Hy3Jd0Gb5S';
const OWN = 'Qw3rTy7uIo9pAs2dFg5hJk8lZx1cVb4N';

describe('monitor credentials at rest', () => {
  it('seals with a key of its own, opens with it, and not with another', () => {
    const fromSession = monitorSecretsKey({ sessionSecret: SESSION });
    const own = monitorSecretsKey({ sessionSecret: SESSION, monitorSecretsKey: OWN });
    expect(fromSession.equals(own)).toBe(false);
    const sealed = seal(own, 'hunter2');
    expect(sealed).toMatch(/^sealed:v1:/);
    expect(sealed).not.toContain('hunter2');
    expect(open(own, sealed)).toBe('hunter2');
    expect(open(fromSession, sealed)).toBeNull();
    expect(open(own, `${sealed.slice(0, -2)}xx`)).toBeNull();
  });

  it('seals a new value, keeps the stored one when left out or sent back masked, clears on null or empty', () => {
    const key = monitorSecretsKey({ sessionSecret: SESSION });
    const prev = { password: seal(key, 'old') };
    const next = (password: unknown) => sealSecrets(['password'], { password }, prev, key).password;
    expect(open(key, next('new') as string)).toBe('new');
    expect(next(prev.password)).toBe(prev.password);
    expect(next('(hidden)')).toBe(prev.password);
    expect(next(null)).toBeNull();
    expect(next('')).toBeNull();
  });

  it('opens a config for the check, or says plainly that the key changed', () => {
    const key = monitorSecretsKey({ sessionSecret: SESSION });
    const config = { url: 'redis://cache', password: seal(key, 'pw') };
    expect(openSecrets(config, key)).toEqual({ config: { url: 'redis://cache', password: 'pw' }, error: null });
    expect(openSecrets(config, monitorSecretsKey({ sessionSecret: SESSION, monitorSecretsKey: OWN })).error).toBe(UNREADABLE_SECRET);
    expect(openSecrets(config, null).error).toBe(UNREADABLE_SECRET);
  });

  it('refuses a weak MONITOR_SECRETS_KEY at start', () => {
    const env = { NODE_ENV: 'test', DATA_DIR: '/tmp/sw-secret-box-test', SESSION_SECRET: SESSION };
    expect(parseConfig({ ...env, MONITOR_SECRETS_KEY: OWN }).monitorSecretsKey).toBe(OWN);
    expect(() => parseConfig({ ...env, MONITOR_SECRETS_KEY: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })).toThrow(/MONITOR_SECRETS_KEY/);
  });
});
