// A monitor page's links (issue 28): a group's children and any monitor's parents, each with its
// status and a link to its own page. Read from the company's monitor list (one call), so a group
// of many children costs no call per child.
import { useEffect, useState } from 'react';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { Card } from '../../ui/Card.tsx';
import { STATUS_TEXT } from './store.ts';

type Monitor = components['schemas']['Monitor'];
type Listed = Pick<Monitor, 'id' | 'name' | 'status'>;

function useNamed(m: Monitor, ids: string[]): Map<string, Listed> | null {
  const [byId, setById] = useState<Map<string, Listed> | null>(null);
  const key = ids.join(',');
  useEffect(() => {
    if (!key) return setById(new Map());
    let gone = false;
    const query = { limit: 200, tenant: m.company_id };
    void api.GET('/api/v1/monitors', { params: { query } }).then(({ data }) => {
      if (!gone) setById(new Map((data ?? []).map((x) => [x.id, x])));
    });
    return () => {
      gone = true;
    };
  }, [key, m.company_id]);
  return byId;
}

function LinkList({ ids, byId, testId }: { ids: string[]; byId: Map<string, Listed> | null; testId: string }) {
  return (
    <ul className="sw-mp-links" data-testid={testId}>
      {ids.map((id) => {
        const x = byId?.get(id);
        const st = x ? STATUS_TEXT[x.status] : null;
        return (
          <li key={id}>
            <a href={`/monitors/${id}`}>{x?.name ?? t('monitors.links.aMonitor')}</a>{' '}
            {st && <span className={`sw-pill sw-${st.tone}`}>{st.text}</span>}
          </li>
        );
      })}
    </ul>
  );
}

export function LinksCard({ m }: { m: Monitor }) {
  const children = m.children ?? [];
  const parents = m.parents;
  const byId = useNamed(m, [...children, ...parents]);
  if (children.length === 0 && parents.length === 0) return null;
  return (
    <Card title={children.length ? t('monitors.links.group') : t('monitors.links.dependsOn')} testId="monitor-links">
      {children.length > 0 && (
        <>
          <p className="sw-muted sw-small">{t('monitors.links.rule', { rule: m.group_rule ?? 'any', min: m.group_min_down ?? 1 })}</p>
          <h4 className="sw-mp-links-title">{t('monitors.links.children', { count: children.length })}</h4>
          <LinkList ids={children} byId={byId} testId="monitor-children" />
        </>
      )}
      {parents.length > 0 && (
        <>
          {children.length > 0 && <h4 className="sw-mp-links-title">{t('monitors.links.parents', { count: parents.length })}</h4>}
          <p className="sw-muted sw-small">{t('monitors.links.parentsHint')}</p>
          <LinkList ids={parents} byId={byId} testId="monitor-parents" />
        </>
      )}
    </Card>
  );
}
