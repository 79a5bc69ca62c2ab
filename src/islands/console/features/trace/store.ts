// One trace with its spans (GET /api/v1/traces/{traceId}), for the waterfall.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

export type Trace = components['schemas']['Trace'];
export type TraceSpan = components['schemas']['TraceSpan'];

/** A 404 answer (httpStatus) reads 'Trace not found'. */
export const $trace = atom<Load<Trace>>({ status: 'loading' });

export function loadTrace(traceId: string): Promise<void> {
  return loadInto($trace, () => api.GET('/api/v1/traces/{traceId}', { params: { path: { traceId } } }), serverOr(t('trace.loadFailed')));
}

/** Spans in tree order (parents before children, siblings by start) with their depth. */
export function waterfall(spans: readonly TraceSpan[]): Array<{ span: TraceSpan; depth: number }> {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string | null, TraceSpan[]>();
  for (const s of spans) {
    const parent = s.parentSpanId && ids.has(s.parentSpanId) ? s.parentSpanId : null;
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const out: Array<{ span: TraceSpan; depth: number }> = [];
  const walk = (parent: string | null, depth: number) => {
    for (const s of (children.get(parent) ?? []).sort((a, b) => a.startOffset - b.startOffset)) {
      out.push({ span: s, depth });
      walk(s.spanId, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
