// The monitors a monitor names (issue 28): a group's children and any monitor's parents, chosen
// from the company's other monitors with the shared checklist (keyboard: Tab to a box, Space to
// tick). The server refuses cycles and other companies' monitors and says which field is wrong.
import { useEffect, useState } from 'react';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { MonitorChecklist, type MonitorChoice } from '../../ui/MonitorChecklist.tsx';

/** The company's monitors (up to 200, by name), without the one being edited. */
function useCompanyMonitors(companyId: string, superAdmin: boolean, selfId: string | null): MonitorChoice[] {
  const [list, setList] = useState<MonitorChoice[]>([]);
  useEffect(() => {
    if (superAdmin && !companyId) return setList([]);
    let gone = false;
    const query = { limit: 200, sort: 'name' as const, order: 'asc' as const, ...(superAdmin ? { tenant: companyId } : {}) };
    void api.GET('/api/v1/monitors', { params: { query } }).then(({ data }) => {
      if (!gone && data) setList(data.filter((m) => m.id !== selfId).map((m) => ({ id: m.id, name: m.name })));
    });
    return () => {
      gone = true;
    };
  }, [companyId, superAdmin, selfId]);
  return list;
}

export function MonitorLinks(props: {
  isGroup: boolean;
  companyId: string;
  superAdmin: boolean;
  selfId: string | null;
  childIds: string[];
  parents: string[];
  onChildren(ids: string[]): void;
  onParents(ids: string[]): void;
  errors: Record<string, string>;
}) {
  const options = useCompanyMonitors(props.companyId, props.superAdmin, props.selfId);
  return (
    <>
      {props.isGroup && (
        <div className="sw-span-2">
          <MonitorChecklist
            id="m-children"
            legend={t('monitors.links.childrenLegend')}
            hint={t('monitors.links.childrenHint')}
            options={options}
            chosen={props.childIds}
            onChange={props.onChildren}
            error={props.errors.children}
          />
        </div>
      )}
      <div className="sw-span-2">
        <MonitorChecklist
          id="m-parents"
          legend={t('monitors.links.dependsOn')}
          hint={t('monitors.links.dependsOnHint')}
          options={options}
          chosen={props.parents}
          onChange={props.onParents}
          error={props.errors.parents}
        />
      </div>
    </>
  );
}
