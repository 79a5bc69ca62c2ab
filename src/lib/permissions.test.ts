// The role table of section 6 of the spec, written out here cell by cell (not derived from the
// module under test) and checked over every role × action × resource.
import { describe, expect, it } from 'vitest';
import { ACTIONS, RESOURCES, USER_TYPE_LABELS, can, roleOfUserType, type Action, type Resource } from './permissions.ts';

const VCU: Action[] = ['view', 'create', 'update'];

const SPEC: Record<'super_admin' | 'customer_admin' | 'customer_viewer', Record<Resource, Action[]>> = {
  super_admin: Object.fromEntries(RESOURCES.map((r) => [r, ['view', 'create', 'update', 'delete', 'export']])) as Record<
    Resource,
    Action[]
  >,
  // spec: tenants none; users view, update; metrics and traces view only; the rest view, create,
  // update; never delete or export
  customer_admin: {
    tenants: [],
    users: ['view', 'update'],
    monitors: VCU,
    settings: VCU,
    api_intelligence: VCU,
    threat_intelligence: VCU,
    vulnerability_scans: VCU,
    domain_checks: VCU,
    ssl_monitoring: VCU,
    notifications: VCU,
    reports: VCU,
    metrics: ['view'],
    traces: ['view'],
  },
  // user_type 3: reads its company's data; changes only its own notifications (read marks,
  // preferences); reads its team; no tenants or settings
  customer_viewer: {
    tenants: [],
    users: ['view'],
    monitors: ['view'],
    settings: [],
    api_intelligence: ['view'],
    threat_intelligence: ['view'],
    vulnerability_scans: ['view'],
    domain_checks: ['view'],
    ssl_monitoring: ['view'],
    notifications: ['view', 'update'],
    reports: ['view'],
    metrics: ['view'],
    traces: ['view'],
  },
};

const cells = (Object.keys(SPEC) as Array<keyof typeof SPEC>).flatMap((role) =>
  RESOURCES.flatMap((resource) => ACTIONS.map((action) => [role, action, resource, SPEC[role][resource].includes(action)] as const)),
);

describe('permissions (section 6)', () => {
  it('covers the five actions and thirteen resources of the spec', () => {
    expect([...ACTIONS]).toEqual(['view', 'create', 'update', 'delete', 'export']);
    expect([...RESOURCES].sort()).toEqual([
      'api_intelligence',
      'domain_checks',
      'metrics',
      'monitors',
      'notifications',
      'reports',
      'settings',
      'ssl_monitoring',
      'tenants',
      'threat_intelligence',
      'traces',
      'users',
      'vulnerability_scans',
    ]);
    expect(cells).toHaveLength(3 * 5 * 13);
  });

  it.each(cells)('%s may %s %s: %s', (role, action, resource, allowed) => {
    expect(can(role, action, resource)).toBe(allowed);
  });

  it.each([null, undefined, '', 'admin', 'SUPER_ADMIN', 'customer', 'viewer', '__proto__', 'constructor', 'toString'])(
    'gives the role %j nothing',
    (role) => {
      for (const resource of RESOURCES)
        for (const action of ACTIONS) expect(can(role, action, resource), `${action} ${resource}`).toBe(false);
    },
  );

  it('keeps user and tenant management to super admins, and delete and export too', () => {
    for (const role of ['customer_admin', 'customer_viewer']) {
      expect(can(role, 'create', 'users') && can(role, 'delete', 'users')).toBe(false);
      expect(can(role, 'view', 'tenants')).toBe(false);
      for (const resource of RESOURCES) {
        expect(can(role, 'delete', resource)).toBe(false);
        expect(can(role, 'export', resource)).toBe(false);
      }
    }
    expect(can('super_admin', 'create', 'users') && can('super_admin', 'delete', 'users') && can('super_admin', 'view', 'tenants')).toBe(
      true,
    );
  });

  it('maps user types to roles and labels', () => {
    expect([1, '1', 2, '2', 3, '3'].map(roleOfUserType)).toEqual([
      'super_admin',
      'super_admin',
      'customer_admin',
      'customer_admin',
      'customer_viewer',
      'customer_viewer',
    ]);
    for (const t of [0, 4, '', null, undefined, 'super_admin']) expect(roleOfUserType(t)).toBeNull();
    expect(USER_TYPE_LABELS).toEqual({ '1': 'Super Admin', '2': 'Company Admin', '3': 'User/Viewer' });
  });
});
