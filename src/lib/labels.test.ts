import { describe, expect, it } from 'vitest';
import { AUDIT_EVENTS } from './audit-events.ts';
import { FLAG_NAMES } from './flags.ts';
import { AUDIT_EVENT_LABELS, FLAG_LABELS, humanize, labelOf, NOTIFICATION_TYPE_LABELS, RESOURCE_LABELS } from './labels.ts';
import { RESOURCES } from './permissions.ts';

describe('labels', () => {
  it('names every flag, audit event and permission resource in words', () => {
    for (const [codes, table] of [
      [FLAG_NAMES, FLAG_LABELS],
      [AUDIT_EVENTS, AUDIT_EVENT_LABELS],
      [RESOURCES, RESOURCE_LABELS],
    ] as const) {
      for (const code of codes) {
        expect(Object.hasOwn(table, code), code).toBe(true);
        expect(table[code], code).not.toMatch(/_/);
      }
    }
    expect(NOTIFICATION_TYPE_LABELS.monitor_incident).toBe('Monitor incident');
    expect(FLAG_LABELS.ENABLE_BULK_OPERATIONS).toBe('Bulk operations');
  });

  it('reads an unlisted code as words', () => {
    expect(humanize('previous_tenant_id')).toBe('Previous tenant ID');
    expect(humanize('previousTenantId')).toBe('Previous tenant ID');
    expect(humanize('ip')).toBe('IP');
    expect(labelOf(AUDIT_EVENT_LABELS, 'tenant_switch')).toBe('Tenant switched');
    expect(labelOf(AUDIT_EVENT_LABELS, 'brand_new_event')).toBe('Brand new event');
  });
});
