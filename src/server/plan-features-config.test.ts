// The plan feature lists the operator sets (issue 31: single sign-on on Enterprise by default).
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';
import { planHasFeature } from '../lib/plans.ts';
import { tempDir } from '../../tests/support/test-db.ts';

describe('plan features', () => {
  it('single sign-on is on Enterprise by default; PLAN_FEATURE_SSO names other plans, or none', () => {
    const d = parseConfig({ DATA_DIR: tempDir() }).planFeatures;
    expect(['starter', 'professional', 'enterprise', 'gold', null].map((p) => planHasFeature(d, p, 'sso'))).toEqual([
      false,
      false,
      true,
      false,
      false,
    ]);
    const wider = parseConfig({ DATA_DIR: tempDir(), PLAN_FEATURE_SSO: ' Professional, enterprise' }).planFeatures;
    expect(wider.sso).toEqual(['professional', 'enterprise']);
    expect(parseConfig({ DATA_DIR: tempDir(), PLAN_FEATURE_SSO: '' }).planFeatures.sso).toEqual([]);
  });

  it('refuses an unknown plan name with the variable and what it takes', () => {
    expect(() => parseConfig({ DATA_DIR: tempDir(), PLAN_FEATURE_SSO: 'enterprise,platinum' })).toThrow(ConfigError);
    expect(() => parseConfig({ DATA_DIR: tempDir(), PLAN_FEATURE_SSO: 'platinum' })).toThrow(
      'Invalid PLAN_FEATURE_SSO="platinum": expected a comma-separated list of plans (starter, professional, enterprise)',
    );
  });
});
