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
import { t } from '../../i18n.ts';

export const sectionTitle = (s: Section, i: number) =>
  s.key === UNGROUPED ? t('statusPage.page.ungrouped') : s.name.trim() || t('statusPage.groups.fallbackName', { n: i });

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
      <nav aria-label={t('statusPage.page.breadcrumb')} className="sw-breadcrumb">
        <a href="/dashboard">{t('statusPage.page.crumbDashboard')}</a> / <a href="/monitors">{t('statusPage.page.crumbMonitors')}</a> /{' '}
        <span aria-current="page">{t('statusPage.page.title')}</span>
      </nav>
      <div className="sw-page-head sw-row-between">
        <h2 className="sw-page-title">{t('statusPage.page.title')}</h2>
        {preview && (
          <a className="sw-btn" href={preview} target="_blank" rel="noopener">
            {t('statusPage.page.preview')}
            <span className="sw-visually-hidden"> {t('statusPage.page.newTab')}</span>
          </a>
        )}
      </div>
      <p className="sw-muted">{t('statusPage.page.intro')}</p>
      {waiting && <p className="sw-banner">{t('statusPage.page.chooseTenant')}</p>}
      {!waiting && !mayEdit && <p className="sw-muted">{t('statusPage.page.readOnly')}</p>}
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      {!waiting && settings.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {settings.message}
          <button type="button" className="sw-btn sw-btn-small" onClick={() => void loadSettings(scope)}>
            {t('statusPage.page.retry')}
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
            {saving ? t('statusPage.page.saving') : t('statusPage.page.save')}
          </button>
          <button type="button" className="sw-btn" disabled={!dirty || saving} onClick={discardChanges}>
            {t('statusPage.page.discard')}
          </button>
          {dirty && <span className="sw-muted">{t('statusPage.page.unsaved')}</span>}
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
    p.onMoved(id, by, t('statusPage.section.moved', { name, place: at + 1, section: title }));
  };
  return (
    <section className="sw-card sw-sp-section" aria-labelledby={headId} data-section={section.key}>
      <header className="sw-card-head">
        <h3 id={headId}>{t('statusPage.section.title', { title, count: section.monitors.length })}</h3>
      </header>
      <Table
        className="sw-sp-table"
        rows={section.monitors}
        rowKey={(m) => m.id}
        rowProps={(m) => ({ 'data-monitor': m.id })}
        empty={mayEdit ? t('statusPage.section.emptyEdit') : t('statusPage.section.empty')}
        columns={[
          {
            label: t('statusPage.col.public'),
            cell: (m) =>
              mayEdit ? (
                <input
                  type="checkbox"
                  checked={m.isPublic}
                  aria-label={t('statusPage.row.show', { name: m.name })}
                  onChange={(e) => p.onChange(updateMonitor(layout, m.id, { isPublic: e.target.checked }))}
                />
              ) : m.isPublic ? (
                t('statusPage.row.yes')
              ) : (
                t('statusPage.row.no')
              ),
          },
          {
            label: t('statusPage.col.monitor'),
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
                label: t('statusPage.col.publicName'),
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
                        aria-label={t('statusPage.row.publicNameOf', { name: m.name })}
                        aria-describedby={hintId}
                        onChange={(e) => p.onChange(updateMonitor(layout, m.id, { publicName: e.target.value }))}
                      />
                      <OtherLanguages
                        id={`sp-name-lang-${m.id}`}
                        field={t('statusPage.row.publicNameOf', { name: m.name })}
                        maxLength={100}
                        value={m.publicNameTranslations ?? {}}
                        onChange={(next) => p.onChange(updateMonitor(layout, m.id, { publicNameTranslations: next }))}
                      />
                      <small id={hintId} className={warn ? 'sw-sp-warn' : 'sw-hint'}>
                        {!m.isPublic
                          ? t('statusPage.row.private')
                          : warn
                            ? t('statusPage.row.looksLikeHost', { shown: visible })
                            : t('statusPage.row.visitorsRead', { shown: visible })}
                      </small>
                    </div>
                  );
                },
              }
            : { label: t('statusPage.col.visitorsRead'), cell: (m) => shown.get(m.id) ?? '—' },
          {
            label: t('statusPage.col.byLocation'),
            cell: (m) =>
              mayEdit ? (
                <input
                  type="checkbox"
                  checked={m.showLocations}
                  disabled={!m.isPublic}
                  aria-label={t('statusPage.row.byLocation', { name: m.name })}
                  title={t('statusPage.row.byLocationHint')}
                  onChange={(e) => p.onChange(updateMonitor(layout, m.id, { showLocations: e.target.checked }))}
                />
              ) : m.showLocations ? (
                t('statusPage.row.yes')
              ) : (
                t('statusPage.row.no')
              ),
          },
          responseChartColumn(layout, mayEdit, p.onChange),
          mayEdit && {
            label: t('statusPage.col.group'),
            cell: (m) => (
              <select
                value={section.key}
                aria-label={t('statusPage.row.groupOf', { name: m.name })}
                onChange={(e) => p.onChange(moveToSection(layout, m.id, e.target.value))}
              >
                {layout.map((s, j) => (
                  <option key={s.key} value={s.key}>
                    {s.key === UNGROUPED ? t('statusPage.row.noGroup') : sectionTitle(s, j)}
                  </option>
                ))}
              </select>
            ),
          },
          mayEdit && {
            label: t('statusPage.col.order'),
            cell: (m, i) => (
              <div className="sw-actions">
                <button
                  type="button"
                  id={`sp-move-up-${m.id}`}
                  className="sw-btn sw-btn-small"
                  aria-label={t('statusPage.row.moveUp', { name: m.name })}
                  disabled={i === 0}
                  onClick={() => move(m.id, m.name, -1)}
                >
                  {t('statusPage.row.up')}
                </button>
                <button
                  type="button"
                  id={`sp-move-down-${m.id}`}
                  className="sw-btn sw-btn-small"
                  aria-label={t('statusPage.row.moveDown', { name: m.name })}
                  disabled={i === section.monitors.length - 1}
                  onClick={() => move(m.id, m.name, 1)}
                >
                  {t('statusPage.row.down')}
                </button>
              </div>
            ),
          },
        ]}
      />
    </section>
  );
}
