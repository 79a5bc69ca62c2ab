// The probe's disk buffer: batches come back oldest first, a segment is gone only once removed
// (acknowledged), the bound drops the oldest results and counts them, and a crash mid-append (a
// torn last line) loses only that line, the rest being delivered after the restart.
import { appendFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/support/test-db.ts';
import { DiskBuffer } from './buffer.ts';
import type { WireResult } from './wire.ts';

const result = (n: number): WireResult => ({
  id: `r-${n}`,
  monitor_id: 'm-1',
  checked_at: 1_000 + n,
  status: 'operational',
  response_time_ms: 10,
  http_code: 200,
  error: null,
  timings: { total: 10 },
  cert_expires_at: null,
  cert_issuer: null,
  cert_subject: null,
});
const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => result(from + i));

/** Everything the buffer holds, oldest first, each segment removed once read (as if acknowledged). */
function drain(b: DiskBuffer): string[] {
  const ids: string[] = [];
  b.seal();
  for (let seg = b.oldest(); seg; seg = b.oldest()) {
    ids.push(...b.read(seg).map((r) => r.id));
    b.remove(seg);
  }
  return ids;
}

describe('the probe buffer', () => {
  it('gives batches back oldest first, across segments and a restart, and keeps a segment until it is removed', () => {
    const dir = tempDir('probe-buffer-');
    const logs: string[] = [];
    const a = new DiskBuffer(dir, 64 * 1024 * 1024, (l) => logs.push(l));
    a.append(batch(0, 3));
    a.seal();
    a.append(batch(3, 2));
    expect(a.pending).toBe(5);
    const first = a.oldest();
    expect(first && a.read(first).map((r) => r.id)).toEqual(['r-0', 'r-1', 'r-2']);
    a.close(); // not acknowledged: still on disk for the next start

    const b = new DiskBuffer(dir, 64 * 1024 * 1024, (l) => logs.push(l));
    expect(b.pending).toBe(5);
    b.append(batch(5, 1));
    expect(drain(b)).toEqual(['r-0', 'r-1', 'r-2', 'r-3', 'r-4', 'r-5']);
    expect(b.pending).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
    expect(logs).toEqual([]);
  });

  it('drops the oldest results past its bound, counts them and says so', () => {
    const dir = tempDir('probe-buffer-');
    const logs: string[] = [];
    const maxBytes = 64 * 1024;
    const b = new DiskBuffer(dir, maxBytes, (l) => logs.push(l));
    for (let i = 0; i < 100; i++) b.append(batch(i * 10, 10));
    expect(b.bytes).toBeLessThanOrEqual(maxBytes);
    expect(b.dropped).toBeGreaterThan(0);
    expect(b.pending + b.dropped).toBe(1000);
    expect(logs.at(-1)).toContain(`(${b.dropped} since start)`);
    expect(logs[0]).toMatch(/^buffer full \(0 MB\): dropped the \d+ oldest results/);
    const kept = drain(b);
    // the newest are kept, in order, with nothing missing between them
    expect(kept.at(-1)).toBe('r-999');
    expect(kept).toEqual(batch(1000 - kept.length, kept.length).map((r) => r.id));
  });

  it('after a crash mid-append keeps every whole batch and skips only the torn line', () => {
    const dir = tempDir('probe-buffer-');
    const a = new DiskBuffer(dir, 64 * 1024 * 1024, () => {});
    a.append(batch(0, 2));
    a.append(batch(2, 2));
    // the process dies while writing the next batch: half a line, no newline
    const [open] = readdirSync(dir);
    expect(open).toMatch(/\.open$/);
    appendFileSync(path.join(dir, open), JSON.stringify(batch(4, 2)).slice(0, 40));

    const b = new DiskBuffer(dir, 64 * 1024 * 1024, () => {});
    expect(b.pending).toBe(4);
    b.append(batch(10, 1)); // a new segment: the torn file is never appended to again
    expect(drain(b)).toEqual(['r-0', 'r-1', 'r-2', 'r-3', 'r-10']);
  });
});
