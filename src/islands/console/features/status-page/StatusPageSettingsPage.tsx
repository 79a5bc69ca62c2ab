// /monitors/status-page: which monitors the public status page shows, the names visitors read,
// their order and component groups, saved at once; a preview link opens the public page. Move
// buttons keep the keyboard focus on the row that moved and say where it went. Viewers see the
// layout and what visitors read, without controls. Admins also manage the page's custom domain,
// and the Access card says who may see the page.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { boot } from '../../boot.ts';
import { CustomDomainCard } from './CustomDomainCard.tsx';
import { AccessCard } from './AccessCard.tsx';
import { EmbedCard } from './EmbedCard.tsx';
import { LanguagesCard } from './LanguagesCard.tsx';
import { GroupsCard } from './GroupsCard.tsx';
import { SecurityPanelCard } from './SecurityPanelCard.tsx';
import { responseChartColumn } from './response-chart-column.tsx';
import { Table } from '../../ui/Table.tsx';
import { OtherLanguages } from '../../ui/OtherLanguages.tsx';
import { type Layout, moveMonitor, moveToSection, needsPublicName, type Section, shownNames, UNGROUPED, updateMonitor } from './layout.ts';
import { $draft, $saving, $settings, $statusPageAlert, discardChanges, isDirty, loadSettings, saveLayout } from './store.ts';
import './status-page.css';

export const sectionTitle = (s: Section, i: number) => (s.key === UNGROUPED ? 'Listed on their own' : s.name.trim() || `Group ${i}`);

export function StatusPageSettingsPage() {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const settings = useStore($settings);
  const draft = useStore($draft);
  const alert = useStore($statusPageAlert);
  const saving = useStore($saving);
  const [announce, setAnnounce] = useState('');
  const [focus, setFocus] = useState<{ id: string; fallback: string } | null>(null);
  const superAdmin = role === 'super_admin';
  const scope = superAdmin ? tenant : null;
  const mayEdit = can(role, 'update', 'monitors');
  const waiting = superAdmin && !tenant;
  useEffect(() => {
    $statusPageAlert.set(null);
    if (!waiting) void loadSettings(scope);
  }, [scope, waiting]);
  useEffect(() => {
    if (!focus) return;
    const el = document.getElementById(focus.id) as HTMLButtonElement | null;
    (el && !el.disabled ? el : document.getElementById(focus.fallback))?.focus();
    setFocus(null);
  }, [focus]);
  const edit = (next: Layout) => {
    $statusPageAlert.set(null);
    $draft.set(next);
  };
  const dirty = isDirty(draft, settings);
  const preview = settings.status === 'ready' ? settings.data.preview_url : null;
  return (
    <div className="sw-admin sw-sp">
      <nav aria-label="Breadcrumb" className="sw-breadcrumb">
        <a href="/dashboard">Dashboard</a> / <a href="/monitors">Monitors</a> / <span aria-current="page">Status Page</span>
      </nav>
      <div className="sw-page-head sw-row-between">
        <h2 className="sw-page-title">Status Page</h2>
        {preview && (
          <a className="sw-btn" href={preview} target="_blank" rel="noopener">
            Preview status page<span className="sw-visually-hidden"> (opens in a new tab)</span>
          </a>
        )}
      </div>
      <p className="sw-muted">
        Choose which monitors your public status page shows, the names visitors read, their order and their groups. A monitor without a
        public name shows its own name, unless that looks like a host or an address: visitors then read "Service N" (its place on the page).
        Internal names never reach the status page or the sign-in page's list.
      </p>
      {waiting && <p className="sw-banner">Choose a tenant in the selector to edit its status page.</p>}
      {!waiting && !mayEdit && <p className="sw-muted">You can see these settings; a company admin changes them.</p>}
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      {!waiting && settings.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {settings.message}
          <button type="button" className="sw-btn sw-btn-small" onClick={() => void loadSettings(scope)}>
            Retry
          </button>
        </div>
      )}
      {!waiting && settings.status === 'loading' && <Skeleton rows={4} />}
      <p className="sw-visually-hidden" aria-live="polite">
        {announce}
      </p>
      {draft && mayEdit && <GroupsCard layout={draft} onChange={edit} onAnnounce={setAnnounce} />}
      {draft?.map((s, i) => (
        <SectionCard
          key={s.key}
          layout={draft}
          section={s}
          index={i}
          mayEdit={mayEdit}
          onChange={edit}
          onMoved={(id, by, text) => {
            setAnnounce(text);
            setFocus({ id: `sp-move-${by < 0 ? 'up' : 'down'}-${id}`, fallback: `sp-move-${by < 0 ? 'down' : 'up'}-${id}` });
          }}
        />
      ))}
      {draft && mayEdit && (
        <div className="sw-sp-save">
          <button type="button" className="sw-btn sw-btn-primary" disabled={!dirty || saving} onClick={() => void saveLayout(scope)}>
            {saving ? 'Saving…' : 'Save changes'}
          </button>
          <button type="button" className="sw-btn" disabled={!dirty || saving} onClick={discardChanges}>
            Discard changes
          </button>
          {dirty && <span className="sw-muted">Unsaved changes</span>}
        </div>
      )}
      {!waiting && can(role, 'view', 'settings') && <CustomDomainCard role={role} tenant={scope} productDomain={boot().productDomain} />}
      {settings.status === 'ready' && (
        <LanguagesCard
          key={`${settings.data.company_id}|${settings.data.languages?.join(',')}|${settings.data.time_zone}`}
          settings={settings.data}
          tenant={scope}
          mayEdit={mayEdit}
          onSaved={(data) => $settings.set({ status: 'ready', data })}
        />
      )}
      {settings.status === 'ready' && (
        <AccessCard
          access={settings.data.access}
          tenant={scope}
          mayEdit={mayEdit}
          onSaved={(access) => $settings.set({ status: 'ready', data: { ...settings.data, access } })}
        />
      )}
      {settings.status === 'ready' && <EmbedCard pageUrl={settings.data.preview_url} isPublic={settings.data.access.mode === 'public'} />}
      {settings.status === 'ready' && <SecurityPanelCard tenant={scope} mayEdit={mayEdit} />}
    </div>
  );
}

function SectionCard(p: {
  layout: Layout;
  section: Section;
  index: number;
  mayEdit: boolean;
  onChange: (l: Layout) => void;
  onMoved: (id: string, by: -1 | 1, text: string) => void;
}) {
  const { layout, section, mayEdit } = p;
  const shown = shownNames(layout);
  const title = sectionTitle(section, p.index);
  const headId = `sp-section-${section.key}`;
  const move = (id: string, name: string, by: -1 | 1) => {
    const next = moveMonitor(layout, id, by);
    const at = next.find((s) => s.key === section.key)!.monitors.findIndex((m) => m.id === id);
    p.onChange(next);
    p.onMoved(id, by, `${name} moved to place ${at + 1} in ${title}.`);
  };
  return (
    <section className="sw-card sw-sp-section" aria-labelledby={headId} data-section={section.key}>
      <header className="sw-card-head">
        <h3 id={headId}>
          {title} ({section.monitors.length})
        </h3>
      </header>
      <Table
        className="sw-sp-table"
        rows={section.monitors}
        rowKey={(m) => m.id}
        rowProps={(m) => ({ 'data-monitor': m.id })}
        empty={mayEdit ? "No monitors here yet: choose this group in a monitor's Group menu." : 'No monitors here.'}
        columns={[
          {
            label: 'Public',
            cell: (m) =>
              mayEdit ? (
                <input
                  type="checkbox"
                  checked={m.isPublic}
                  aria-label={`Show ${m.name} on the status page`}
                  onChange={(e) => p.onChange(updateMonitor(layout, m.id, { isPublic: e.target.checked }))}
                />
              ) : m.isPublic ? (
                'Yes'
              ) : (
                'No'
              ),
          },
          {
            label: 'Monitor',
            // one child per cell: stacked rows (below 768 px) lay a cell out as label | content
            cell: (m) => (
              <div>
                <strong className="sw-wrap-anywhere">{m.name}</strong>
                {m.target && <div className="sw-muted sw-wrap-anywhere">{m.target}</div>}
              </div>
            ),
          },
          mayEdit
            ? {
                label: 'Public name',
                cell: (m) => {
                  const visible = shown.get(m.id);
                  const warn = needsPublicName(m);
                  const hintId = `sp-hint-${m.id}`;
                  return (
                    <div className="sw-sp-name-cell">
                      <input
                        className="sw-sp-name"
                        value={m.publicName}
                        maxLength={100}
                        placeholder={visible ?? m.name}
                        aria-label={`Public name of ${m.name}`}
                        aria-describedby={hintId}
                        onChange={(e) => p.onChange(updateMonitor(layout, m.id, { publicName: e.target.value }))}
                      />
                      <OtherLanguages
                        id={`sp-name-lang-${m.id}`}
                        field={`Public name of ${m.name}`}
                        maxLength={100}
                        value={m.publicNameTranslations ?? {}}
                        onChange={(next) => p.onChange(updateMonitor(layout, m.id, { publicNameTranslations: next }))}
                      />
                      <small id={hintId} className={warn ? 'sw-sp-warn' : 'sw-hint'}>
                        {!m.isPublic
                          ? 'Private: not on the status page'
                          : warn
                            ? `Looks like a host: visitors read "${visible}" until you set a public name`
                            : `Visitors read "${visible}"`}
                      </small>
                    </div>
                  );
                },
              }
            : { label: 'Visitors read', cell: (m) => shown.get(m.id) ?? '—' },
          {
            label: 'By location',
            cell: (m) =>
              mayEdit ? (
                <input
                  type="checkbox"
                  checked={m.showLocations}
                  disabled={!m.isPublic}
                  aria-label={`Show the response time of ${m.name} from each of its locations`}
                  title="Monitors checked from several locations: the page shows the latest response time from each"
                  onChange={(e) => p.onChange(updateMonitor(layout, m.id, { showLocations: e.target.checked }))}
                />
              ) : m.showLocations ? (
                'Yes'
              ) : (
                'No'
              ),
          },
          responseChartColumn(layout, mayEdit, p.onChange),
          mayEdit && {
            label: 'Group',
            cell: (m) => (
              <select
                value={section.key}
                aria-label={`Group of ${m.name}`}
                onChange={(e) => p.onChange(moveToSection(layout, m.id, e.target.value))}
              >
                {layout.map((s, j) => (
                  <option key={s.key} value={s.key}>
                    {s.key === UNGROUPED ? 'No group' : sectionTitle(s, j)}
                  </option>
                ))}
              </select>
            ),
          },
          mayEdit && {
            label: 'Order',
            cell: (m, i) => (
              <div className="sw-actions">
                <button
                  type="button"
                  id={`sp-move-up-${m.id}`}
                  className="sw-btn sw-btn-small"
                  aria-label={`Move ${m.name} up`}
                  disabled={i === 0}
                  onClick={() => move(m.id, m.name, -1)}
                >
                  Up
                </button>
                <button
                  type="button"
                  id={`sp-move-down-${m.id}`}
                  className="sw-btn sw-btn-small"
                  aria-label={`Move ${m.name} down`}
                  disabled={i === section.monitors.length - 1}
                  onClick={() => move(m.id, m.name, 1)}
                >
                  Down
                </button>
              </div>
            ),
          },
        ]}
      />
    </section>
  );
}
