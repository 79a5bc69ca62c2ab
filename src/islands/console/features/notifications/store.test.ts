import { describe, expect, it } from 'vitest';
import { actionPath, notificationText, type Notification } from './store.ts';

const MONITOR = '5d1c2b3a-4e5f-4a7b-8c9d-0e1f2a3b4c5d';
const INCIDENT = '0b6f7c1e-1d2a-4c39-9a57-2f3e4d5c6b7a';

// the schema's metadata is a free-form object, which the generated type cannot name
function notification(over: Partial<Omit<Notification, 'metadata'>> & { metadata?: Record<string, unknown> }): Notification {
  return {
    id: 'n1',
    user_id: 'u1',
    company_id: 'c1',
    type: 'monitor_incident',
    severity: 'critical',
    title: 'Dead API is down',
    message: 'Dead API is down: HTTP 500 is not an accepted status code',
    details: 'HTTP 500 is not an accepted status code',
    metadata: { monitor_id: MONITOR, incident_id: INCIDENT, event: 'opened' },
    action_url: `/monitors/incidents/${INCIDENT}`,
    is_read: false,
    created_at: '2026-11-24T09:00:00.000Z',
    read_at: null,
    ...over,
  } as unknown as Notification;
}

describe('actionPath', () => {
  it('opens the incident of a notification written before the incident screens', () => {
    expect(actionPath(notification({ action_url: `/monitors?incident=${INCIDENT}` }))).toBe(`/monitors/incidents/${INCIDENT}`);
  });
  it("opens the monitor's page for links written before the monitor page", () => {
    expect(actionPath(notification({ action_url: `/monitors?monitor=${MONITOR}`, metadata: { monitor_id: MONITOR } }))).toBe(
      `/monitors/${MONITOR}`,
    );
  });
  it('without a link, opens the incident, else the monitor named in the metadata', () => {
    expect(actionPath(notification({ action_url: null }))).toBe(`/monitors/incidents/${INCIDENT}`);
    expect(actionPath(notification({ action_url: null, metadata: { monitor_id: MONITOR } }))).toBe(`/monitors/${MONITOR}`);
    expect(actionPath(notification({ action_url: null, metadata: {} }))).toBeNull();
  });
  it('leaves every other link alone', () => {
    expect(actionPath(notification({ action_url: `/monitors/incidents/${INCIDENT}` }))).toBe(`/monitors/incidents/${INCIDENT}`);
    expect(actionPath(notification({ action_url: '/notifications/deliveries?channel_id=abc' }))).toBe(
      '/notifications/deliveries?channel_id=abc',
    );
  });
});

describe('notificationText', () => {
  it('reads as the sentence of the message, never the raw metadata', () => {
    const text = notificationText(notification({}));
    expect(text).toEqual(['Dead API is down: HTTP 500 is not an accepted status code']);
    expect(text.join(' ')).not.toMatch(/monitor_id|incident_id|event:/);
  });
  it('adds the details when the message does not already say them', () => {
    expect(notificationText(notification({ message: 'DNS answers changed.', details: 'Before: 1.2.3.4. Now: 5.6.7.8.' }))).toEqual([
      'DNS answers changed.',
      'Before: 1.2.3.4. Now: 5.6.7.8.',
    ]);
  });
});
