// What each tool's body becomes: titles, keys, fingerprints, severities, and the words cleaned.
import { describe, expect, it } from 'vitest';
import { batchOf, type SeverityRule } from './bodies.ts';
import { DEFAULT_SEVERITY_MAP, highestLevel, incidentSeverityOf, levelOf } from './severity.ts';

const rule: SeverityRule = { label: 'severity', map: { ...DEFAULT_SEVERITY_MAP }, fallback: 'high' };
const alert = (labels: Record<string, string>, over: Record<string, unknown> = {}) => ({
  status: 'firing' as const,
  labels,
  annotations: {},
  ...over,
});

describe('incoming bodies', () => {
  it('titles a group by its common alert name and summary, each alert by its own', () => {
    const b = batchOf(
      'alertmanager',
      {
        status: 'firing',
        groupKey: '{}:{alertname="Down"}',
        commonLabels: { alertname: 'Down' },
        commonAnnotations: { summary: 'Target down' },
        alerts: [alert({ alertname: 'Down', instance: 'a' }, { fingerprint: 'f1', annotations: { summary: 'a is down' } })],
      },
      rule,
    );
    expect(b).toMatchObject({ key: '{}:{alertname="Down"}', title: 'Down: Target down', complete: true });
    expect(b.alerts[0]).toMatchObject({ fingerprint: 'f1', title: 'Down: a is down', level: 'high' });
  });

  it('takes a hash of the labels when the tool sends no fingerprint: the same labels, the same alert', () => {
    const one = batchOf('grafana', { status: 'firing', groupKey: 'g', alerts: [alert({ b: '2', a: '1' })] }, rule);
    const two = batchOf('grafana', { status: 'firing', groupKey: 'g', alerts: [alert({ a: '1', b: '2' })] }, rule);
    const other = batchOf('grafana', { status: 'firing', groupKey: 'g', alerts: [alert({ a: '1', b: '3' })] }, rule);
    expect(one.alerts[0].fingerprint).toBe(two.alerts[0].fingerprint);
    expect(one.alerts[0].fingerprint).not.toBe(other.alerts[0].fingerprint);
  });

  it('a truncated group is not complete: only the tool saying resolved resolves it', () => {
    expect(batchOf('alertmanager', { status: 'firing', groupKey: 'g', truncatedAlerts: 3, alerts: [] }, rule).complete).toBe(false);
  });

  it('drops control and direction characters from what the tool sent', () => {
    const b = batchOf(
      'alertmanager',
      { status: 'firing', groupKey: 'g\u0000', alerts: [alert({ alertname: 'Evil\u202Egnp.exe', x: 'a\u0007b' })] },
      rule,
    );
    expect(b.key).toBe('g');
    expect(b.alerts[0].title).toBe('Evilgnp.exe');
    expect(b.alerts[0].labels.x).toBe('ab');
  });

  it('maps severity label values case-insensitively, unknown ones to the default', () => {
    expect(levelOf('WARNING', rule.map, 'high')).toBe('medium');
    expect(levelOf('p1', rule.map, 'high')).toBe('high');
    expect(levelOf(undefined, rule.map, 'low')).toBe('low');
    expect(highestLevel(['info', 'critical', 'medium'], 'low')).toBe('critical');
    expect(incidentSeverityOf('info')).toBe('low');
  });

  it('the generic body is one alert keyed by its key', () => {
    const b = batchOf(
      'generic',
      { key: ' backup ', status: 'resolved', title: 'Backup', severity: 'low', url: 'https://ci.example/1' },
      rule,
    );
    expect(b).toMatchObject({ key: 'backup', status: 'resolved', title: 'Backup', complete: true });
    expect(b.alerts).toHaveLength(1);
    expect(b.alerts[0]).toMatchObject({ level: 'low', url: 'https://ci.example/1', status: 'resolved' });
  });

  it('a group key longer than its column keeps its start and a hash: two long keys never merge', () => {
    const long = (end: string) => batchOf('alertmanager', { status: 'firing', groupKey: `${'x'.repeat(400)}${end}`, alerts: [] }, rule).key;
    expect(long('a')).toHaveLength(300);
    expect(long('a')).not.toBe(long('b'));
    expect(long('a')).toBe(long('a'));
  });
});
