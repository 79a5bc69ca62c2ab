// The prompt of an incident summary: the incident's own title and monitor and its evidence, with
// credentials, bearer tokens and secret-named values removed; the budget's estimate and month.
import { describe, expect, it } from 'vitest';
import type { IncidentEvidence } from '../../../../lib/incident-evidence.ts';
import { estimateTokens, evidenceForPrompt, scrubText, summaryMessages, usageMonth } from './prompt.ts';

const evidence: IncidentEvidence = {
  incident_id: 'i1',
  monitor_id: 'm1',
  built_at: '2026-11-30T06:50:00.000Z',
  updated_at: '2026-11-30T06:55:00.000Z',
  line: 'DNS answer changed',
  items: [
    {
      kind: 'dns_change',
      summary: 'A record of shop.example.com changed from 203.0.113.5 to 198.51.100.7',
      at: '2026-11-30T06:00:00.000Z',
      source: { label: 'Domain checks', href: '/security/domains/a1' },
      data: {
        name: 'shop.example.com',
        before: ['203.0.113.5'],
        after: ['198.51.100.7'],
        api_key: 'k-123',
        note: 'Authorization: Bearer abcdefgh12345',
      },
    },
  ],
};

describe('incident summary prompt', () => {
  it('scrubs credentials in URLs, bearer tokens and secret-named pairs, and leaves other text alone', () => {
    expect(scrubText('see https://admin:s3cret@db.example.com:5432/x?token=zzz&page=2 now')).toBe(
      'see https://[redacted]@db.example.com:5432/x?token=[redacted]&page=2 now',
    );
    expect(scrubText('Authorization: Bearer abcdefgh12345')).toBe('Authorization: [redacted]');
    expect(scrubText('password=hunter2; user=bob')).toBe('password=[redacted]; user=bob');
    expect(scrubText('TLS handshake 840 ms, baseline 45 ms')).toBe('TLS handshake 840 ms, baseline 45 ms');
  });

  it('sends the findings and figures, without secret-named figures or console links', () => {
    const clean = evidenceForPrompt(evidence);
    expect(clean.items[0].data).toEqual({
      name: 'shop.example.com',
      before: ['203.0.113.5'],
      after: ['198.51.100.7'],
      note: 'Authorization: [redacted]',
    });
    expect(clean.items[0].source).toEqual({ label: 'Domain checks', href: '' });
    const [system, user] = summaryMessages(
      { title: 'Shop down', monitorName: 'Shop', startedAt: '2026-11-30T06:49:00.000Z', resolvedAt: null },
      clean,
    );
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/Use ONLY the facts in the evidence/);
    expect(user.content.split('\n').slice(0, 6)).toEqual([
      'Incident: Shop down',
      'Monitor: Shop',
      'Started: 2026-11-30T06:49:00.000Z',
      'Resolved: not yet',
      'Evidence panel (built 2026-11-30T06:50:00.000Z, updated 2026-11-30T06:55:00.000Z): DNS answer changed',
      'Findings, most telling first:',
    ]);
    expect(user.content).toContain('1. [dns_change] A record of shop.example.com changed from 203.0.113.5 to 198.51.100.7');
    expect(user.content).not.toContain('k-123');
    expect(user.content).not.toContain('/security/domains/a1');
  });

  it('estimates the prompt at four characters a token plus the whole answer allowance; counts by UTC month', () => {
    expect(estimateTokens([{ role: 'user', content: 'x'.repeat(400) }], 300)).toBe(100 + 8 + 300);
    expect(usageMonth(Date.parse('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(usageMonth(Date.parse('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
  });
});
