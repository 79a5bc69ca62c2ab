import { describe, expect, it } from 'vitest';
import { applyResult, incidentSeverity, incidentTitle, type MonitorState } from './state-machine.ts';

const base = (over: Partial<MonitorState> = {}): MonitorState => ({
  status: 'operational',
  statusSince: 0,
  pendingStatus: null,
  pendingCount: 0,
  confirmations: 2,
  incidentOpen: false,
  ...over,
});

type Row = [string, MonitorState, 'operational' | 'degraded' | 'down', boolean, Partial<MonitorState>, string[]];

describe('state machine', () => {
  const table: Row[] = [
    [
      'same status clears a pending change',
      base({ pendingStatus: 'down', pendingCount: 1 }),
      'operational',
      false,
      { status: 'operational', pendingStatus: null, pendingCount: 0 },
      [],
    ],
    ['first down is only pending', base(), 'down', false, { status: 'operational', pendingStatus: 'down', pendingCount: 1 }, []],
    [
      'second down confirms and opens an incident',
      base({ pendingStatus: 'down', pendingCount: 1 }),
      'down',
      false,
      { status: 'down', statusSince: 1000, incidentOpen: true },
      ['open_incident'],
    ],
    [
      'confirmations 3 needs a third',
      base({ confirmations: 3, pendingStatus: 'down', pendingCount: 1 }),
      'down',
      false,
      { status: 'operational', pendingCount: 2 },
      [],
    ],
    [
      'confirmations 1 changes at once',
      base({ confirmations: 1 }),
      'down',
      false,
      { status: 'down', incidentOpen: true },
      ['open_incident'],
    ],
    [
      'a different pending status restarts the count',
      base({ pendingStatus: 'degraded', pendingCount: 1 }),
      'down',
      false,
      { status: 'operational', pendingStatus: 'down', pendingCount: 1 },
      [],
    ],
    [
      'recovery needs confirming too',
      base({ status: 'down', incidentOpen: true }),
      'operational',
      false,
      { status: 'down', pendingStatus: 'operational', pendingCount: 1, incidentOpen: true },
      [],
    ],
    [
      'confirmed recovery resolves the incident',
      base({ status: 'down', incidentOpen: true, pendingStatus: 'operational', pendingCount: 1 }),
      'operational',
      false,
      { status: 'operational', incidentOpen: false },
      ['resolve_incident'],
    ],
    [
      'degraded recovery also resolves',
      base({ status: 'down', incidentOpen: true, pendingStatus: 'degraded', pendingCount: 1 }),
      'degraded',
      false,
      { status: 'degraded', incidentOpen: false },
      ['resolve_incident'],
    ],
    [
      'operational to degraded opens nothing',
      base({ pendingStatus: 'degraded', pendingCount: 1 }),
      'degraded',
      false,
      { status: 'degraded' },
      [],
    ],
    ['unknown shows operational at the first result', base({ status: 'unknown' }), 'operational', false, { status: 'operational' }, []],
    [
      'unknown still confirms down',
      base({ status: 'unknown' }),
      'down',
      false,
      { status: 'unknown', pendingStatus: 'down', pendingCount: 1 },
      [],
    ],
    [
      'down during maintenance opens no incident',
      base({ pendingStatus: 'down', pendingCount: 1 }),
      'down',
      true,
      { status: 'down', incidentOpen: false },
      [],
    ],
    [
      'still down when maintenance ends opens the incident then',
      base({ status: 'down' }),
      'down',
      false,
      { status: 'down', incidentOpen: true },
      ['open_incident'],
    ],
    [
      'staying down with an incident open adds nothing',
      base({ status: 'down', incidentOpen: true }),
      'down',
      false,
      { status: 'down', incidentOpen: true },
      [],
    ],
  ];
  it.each(table)('%s', (_name, prev, result, maint, expected, events) => {
    const t = applyResult(prev, result, 1000, maint);
    expect(t.state).toMatchObject(expected);
    expect(t.events.map((e) => e.kind)).toEqual(events);
  });

  it('names and grades automatic incidents', () => {
    expect(incidentTitle('API')).toBe('API is down');
    expect(incidentSeverity(true)).toBe('critical');
    expect(incidentSeverity(false)).toBe('high');
  });
});
