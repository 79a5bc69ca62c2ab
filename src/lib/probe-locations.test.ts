import { describe, expect, it } from 'vitest';
import { compareVersions, isProbeOnline, PROBE_ONLINE_MS, probeInstallCommand, slugProblem } from './probe-locations.ts';

describe('probe location slugs', () => {
  it.each(['eu-west', 'us1', 'ab', 'a'.repeat(32), 'frankfurt-2'])('accepts %s', (s) => {
    expect(slugProblem(s)).toBeNull();
  });
  it.each([
    ['a', 'A slug has 2 to 32 characters.'],
    ['a'.repeat(33), 'A slug has 2 to 32 characters.'],
    ['EU-west', 'A slug has lower-case letters, digits and hyphens, and starts and ends with a letter or digit.'],
    ['eu_west', 'A slug has lower-case letters, digits and hyphens, and starts and ends with a letter or digit.'],
    ['-eu', 'A slug has lower-case letters, digits and hyphens, and starts and ends with a letter or digit.'],
    ['eu-', 'A slug has lower-case letters, digits and hyphens, and starts and ends with a letter or digit.'],
    ['local', '"local" is reserved for the built-in engine.'],
  ])('refuses %s', (s, why) => {
    expect(slugProblem(s)).toBe(why);
  });
});

describe('probe versions', () => {
  it.each([
    ['0.1.0', '0.1.0', 0],
    ['0.0.9', '0.1.0', -1],
    ['0.10.0', '0.9.9', 1],
    ['1.0.0-beta.1', '1.0.0', 0],
    ['2.0.0', '10.0.0', -1],
  ])('%s against %s', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });
});

describe('probe online', () => {
  it('is online up to the limit and offline after it', () => {
    expect(isProbeOnline(0, PROBE_ONLINE_MS)).toBe(true);
    expect(isProbeOnline(0, PROBE_ONLINE_MS + 1)).toBe(false);
  });
  it('builds the install command', () => {
    expect(probeInstallCommand('https://status.example.com', 'swp_x')).toBe(
      'PROBE_URL=https://status.example.com PROBE_TOKEN=swp_x npm run probe',
    );
  });
});
