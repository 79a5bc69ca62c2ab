// What the monitor list and a monitor's page show as its target. A kind's own fields are null in
// another kind's view: a URL-addressed kind has `url`, a domain monitor `domain`, a group
// `children`, a synthetic one (api_flow, browser) `steps`, the rest host and port.
import type { components } from '../../../../api/schema.d.ts';
import { t } from '../../i18n.ts';

type Monitor = components['schemas']['Monitor'];

export function targetOf(m: Pick<Monitor, 'type' | 'url' | 'domain' | 'children' | 'steps' | 'host' | 'port'>): string {
  if (m.type === 'push') return t('monitors.target.heartbeat');
  if (m.url) return m.url;
  if (m.domain) return m.domain;
  if (m.children) return t('monitors.target.children', { count: m.children.length });
  if (m.steps?.length) {
    const first = m.steps.find((s) => s.url)?.url ?? '';
    let host = '';
    try {
      host = new URL(first).host;
    } catch {
      // a templated or missing URL: the count alone
    }
    return host ? t('monitors.target.stepsFrom', { count: m.steps.length, host }) : t('monitors.target.steps', { count: m.steps.length });
  }
  return m.port ? `${m.host}:${m.port}` : (m.host ?? '—');
}
