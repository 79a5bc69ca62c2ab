import { describe, expect, it } from 'vitest';
import { waterfall, type TraceSpan } from './store.ts';

const span = (spanId: string, parentSpanId: string | null, startOffset: number): TraceSpan => ({
  spanId,
  parentSpanId,
  startOffset,
  name: spanId,
  service: 's',
  kind: 'server',
  start: '2026-01-01T00:00:00Z',
  duration: 1,
  status: 'ok',
  httpStatus: null,
  errorMessage: null,
  attributes: {},
  events: [],
});

describe('trace waterfall order', () => {
  it('puts children under their parent, siblings by start, orphans at the top level', () => {
    const rows = waterfall([
      span('c2', 'root', 5),
      span('root', null, 0),
      span('c1', 'root', 1),
      span('g1', 'c1', 2),
      span('orphan', 'missing', 3),
    ]);
    expect(rows.map((r) => `${r.span.spanId}:${r.depth}`)).toEqual(['root:0', 'c1:1', 'g1:2', 'c2:1', 'orphan:0']);
  });
});
