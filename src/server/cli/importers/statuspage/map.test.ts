// The Statuspage mapping on the committed fixture: components to paused push monitors on the
// page, groups in Statuspage's order, and everything left behind listed with its reason.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStatuspage, StatuspageFileError, readExport } from './read.ts';
import { mapStatuspage } from './map.ts';

const FIXTURE = join(import.meta.dirname, '../../../../../tests/fixtures/statuspage/statuspage-export.json');

describe('Statuspage mapping', () => {
  const mapped = mapStatuspage(readStatuspage(FIXTURE));

  it('maps each component to a paused, public push monitor, in page order', () => {
    expect(mapped.file.monitors).toEqual(
      ['REST API', 'Dashboard', 'Webhooks', 'Login', 'E-mail delivery'].map((name) => ({
        name,
        type: 'push',
        interval_seconds: 300,
        is_public: true,
        paused: true,
      })),
    );
  });

  it('lays the page out by component group, ungrouped components on their own', () => {
    expect(mapped.file.status_page).toEqual({
      ungrouped: [{ monitor: 'E-mail delivery' }],
      groups: [
        { name: 'API', monitors: [{ monitor: 'REST API' }, { monitor: 'Webhooks' }] },
        { name: 'Web', monitors: [{ monitor: 'Dashboard' }, { monitor: 'Login' }] },
      ],
    });
  });

  it('lists what is not imported and why', () => {
    const why = (what: string, name: string) => mapped.notImported.find((n) => n.what === what && n.name === name)?.why;
    expect(why('component group', 'Legacy')).toBe('none of its components is imported');
    expect(why('subscriber', 'cara@customer.example')).toBe('never confirmed the subscription on Statuspage (no consent to import)');
    expect(why('subscriber', 'dan@bounced.example')).toBe('quarantined on Statuspage (it could not be reached)');
    expect(why('subscriber', '+1 555-555-0123')).toBe('a sms subscriber: only e-mail subscribers are carried over');
    expect(mapped.notImported.filter((n) => n.what === 'component setting' && n.name === 'Webhooks').map((n) => n.why)).toContain(
      'its current status "degraded_performance": the status here comes from the monitor\'s own checks (post an incident for an outage)',
    );
  });

  it('carries resolved incidents with their updates in order and original times, on their components', () => {
    expect(mapped.incidents).toEqual([
      {
        title: 'Webhook deliveries delayed',
        impact: 'minor',
        started_at: '2026-10-14T09:05:00.000Z',
        resolved_at: '2026-10-14T11:40:00.000Z',
        monitors: ['Webhooks'],
        updates: [
          { status: 'investigating', message: 'Webhook deliveries are delayed by up to 20 minutes.', at: '2026-10-14T09:12:00.000Z' },
          { status: 'monitoring', message: 'A fix is deployed; we are watching the queue.', at: '2026-10-14T10:30:00.000Z' },
          { status: 'resolved', message: 'Deliveries are back to normal.', at: '2026-10-14T11:40:00.000Z' },
        ],
      },
      {
        title: 'Login errors',
        impact: 'major',
        started_at: '2026-09-02T17:55:00.000Z',
        resolved_at: '2026-09-02T18:45:00.000Z',
        monitors: ['Login'],
        updates: [
          { status: 'identified', message: 'A certificate on the identity provider expired.', at: '2026-09-02T18:00:00.000Z' },
          { status: 'resolved', message: 'Sign-in works again.', at: '2026-09-02T18:45:00.000Z' },
        ],
      },
    ]);
    expect(mapped.notImported).toContainEqual({
      what: 'incident',
      name: 'Database maintenance (2026-11-20)',
      why: 'a scheduled maintenance: plan upcoming maintenance as maintenance windows here',
    });
  });

  it('carries only the subscribers who confirmed on Statuspage, by e-mail', () => {
    expect(mapped.subscribers).toEqual([
      { email: 'ana@customer.example', subscribed_at: '2025-03-01T12:00:00.000Z' },
      { email: 'ben@customer.example', subscribed_at: '2025-04-11T08:30:00.000Z' },
    ]);
    expect(mapped.notImported).toContainEqual({
      what: 'subscriber',
      name: 'hooks@customer.example',
      why: 'a webhook subscriber: only e-mail subscribers are carried over',
    });
  });

  it('refuses what is not an export, naming why', () => {
    expect(() => readExport([{ id: 'x' }], 'a.json')).toThrow(StatuspageFileError);
    expect(() => readExport([{ id: 'x' }], 'a.json')).toThrow('a.json is not a Statuspage export (a list, not one object)');
    expect(() => readExport({ incidents: [] }, 'b.json')).toThrow('(no "components" list)');
    expect(() => readExport({ components: [{ name: 'x' }] }, 'c.json')).toThrow('component 1 has no id, name or status');
  });
});
