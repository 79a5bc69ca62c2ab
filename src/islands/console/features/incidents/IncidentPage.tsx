// /monitors/incidents/{id}: one incident with its updates; post an update (resolving is one),
// change its impact (what it means for the status page), switch public/internal, change the affected monitors, and write the postmortem once resolved. On an automatic incident the
// public page shows the engine's updates as neutral sentences: an admin's update is shown as written.
// Related signals (warnings merged into the incident instead of notifying) are listed below the updates.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { IMPACT_LABEL, IMPACTS, type Impact } from '../../../../lib/status.ts';
import { $role } from '../../stores/auth.ts';
import { onLive } from '../../stores/live.ts';
import type { ScreenProps } from '../../ui/screen-props.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { filledTranslations, languageErrors, OtherLanguages, type Translations } from '../../ui/OtherLanguages.tsx';
import { Options } from '../../ui/ModalForm.tsx';
import { fmtTime } from '../../ui/format.ts';
import { EscalationPages } from './EscalationPages.tsx';
import { EvidencePanel } from './EvidencePanel.tsx';
import { IncidentSummary } from './IncidentSummary.tsx';
import { AffectedMonitorsDialog } from './AffectedMonitorsDialog.tsx';
import { StatusBadge } from './IncidentsPage.tsx';
import {
  $incident,
  acknowledgeIncident,
  editIncident,
  label,
  loadIncident,
  postUpdate,
  refreshIncident,
  WRITTEN_STATUSES,
  type IncidentDetail,
  type IncidentStatus,
} from './store.ts';
import { t, type ConsoleKey } from '../../i18n.ts';

export function IncidentPage({ params }: ScreenProps) {
  const id = params.id ?? '';
  const load = useStore($incident);
  useEffect(() => {
    void loadIncident(id);
  }, [id]);
  useEffect(
    () =>
      onLive((m) => {
        if (m.type === 'incident' || m.type === 'resync') void refreshIncident(id);
      }),
    [id],
  );
  return (
    <div className="sw-admin">
      <nav aria-label={t('incidents.incidentPage.breadcrumb')} className="sw-breadcrumb">
        <a href="/dashboard">{t('incidents.incidentPage.dashboard')}</a> /{' '}
        <a href="/monitors/incidents">{t('incidents.incidentPage.incidents')}</a> /{' '}
        <span aria-current="page">{t('incidents.incidentPage.incident')}</span>
      </nav>
      {load.status === 'loading' && <Skeleton rows={4} />}
      {load.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {load.httpStatus === 404 ? t('incidents.incidentPage.thisIncidentDoesNotExist') : load.message}
        </div>
      )}
      {load.status === 'ready' && load.data.id === id && <Incident i={load.data} />}
    </div>
  );
}

function Incident({ i }: { i: IncidentDetail }) {
  const role = useStore($role);
  const mayUpdate = can(role, 'update', 'monitors');
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  const [choosing, setChoosing] = useState(false);
  const resolved = i.resolved_at !== null;
  const togglePublic = async () => {
    const o = await editIncident(i.id, { is_public: !i.is_public });
    setAlert(
      o.ok
        ? {
            ok: true,
            text: o.data.is_public ? t('incidents.incidentPage.theIncidentIsPublic') : t('incidents.incidentPage.theIncidentIsInternal'),
          }
        : { ok: false, text: o.text },
    );
  };
  const acknowledge = async () => {
    const o = await acknowledgeIncident(i.id);
    setAlert(o.ok ? { ok: true, text: t('incidents.incidentPage.acknowledgedYourTeamSeesThat') } : { ok: false, text: o.text });
  };
  return (
    <>
      <div className="sw-page-head sw-row-between">
        <h2 className="sw-page-title">{i.title}</h2>
        {mayUpdate && (
          <div className="sw-row">
            {!resolved && !i.acknowledged_at && (
              <button type="button" className="sw-btn sw-btn-primary" onClick={() => void acknowledge()}>
                {t('incidents.incidentPage.acknowledge')}
              </button>
            )}
            <button type="button" className="sw-btn" onClick={() => void togglePublic()}>
              {i.is_public ? t('incidents.incidentPage.makeInternal') : t('incidents.incidentPage.makePublic')}
            </button>
          </div>
        )}
      </div>
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      <section className="sw-card" aria-labelledby="incident-facts">
        <header className="sw-card-head">
          <h3 id="incident-facts">{t('incidents.incidentPage.summary')}</h3>
        </header>
        <dl className="sw-dl">
          <dt>{t('incidents.incidentPage.status')}</dt>
          <dd>
            <StatusBadge i={i} />
          </dd>
          <dt>{t('incidents.incidentPage.impact')}</dt>
          <dd>{mayUpdate ? <ImpactForm i={i} onSaved={setAlert} /> : IMPACT_LABEL[i.impact]}</dd>
          <dt>{t('incidents.incidentPage.monitors')}</dt>
          <dd>
            {i.monitors.length
              ? i.monitors.map((m, n) => (
                  <span key={m.id}>
                    {n > 0 && ', '}
                    <a href={`/monitors/${m.id}`}>{m.name}</a>
                  </span>
                ))
              : t('incidents.incidentPage.noneTheWholeService')}{' '}
            {mayUpdate && (
              <button type="button" className="sw-btn sw-btn-small" onClick={() => setChoosing(true)}>
                {t('incidents.incidentPage.changeMonitors')}
              </button>
            )}
          </dd>
          <dt>{t('incidents.incidentPage.kind')}</dt>
          <dd>
            {i.automatic ? t('incidents.incidentPage.automaticOpenedAndResolvedBy') : t('incidents.incidentPage.manualResolvedByAPerson')}
          </dd>
          <dt>{t('incidents.incidentPage.visibility')}</dt>
          <dd>{i.is_public ? t('incidents.incidentPage.publicOnTheStatusPage') : t('incidents.incidentPage.internalNotOnTheStatus')}</dd>
          {i.down_where && (
            <>
              <dt>{t('incidents.incidentPage.where')}</dt>
              <dd>{t('incidents.incidentPage.down', { text: i.down_where.text })}</dd>
            </>
          )}
          <dt>{t('incidents.incidentPage.started')}</dt>
          <dd>{fmtTime(i.started_at, '—')}</dd>
          <dt>{t('incidents.escalationPages.acknowledged')}</dt>
          <dd>{acknowledgement(i)}</dd>
          {resolved && (
            <>
              <dt>{t('incidents.incidentPage.resolved')}</dt>
              <dd>{fmtTime(i.resolved_at, '—')}</dd>
            </>
          )}
        </dl>
      </section>
      {choosing && (
        <AffectedMonitorsDialog
          i={i}
          onClose={() => setChoosing(false)}
          onSaved={() => setAlert({ ok: true, text: t('incidents.incidentPage.affectedMonitorsSaved') })}
        />
      )}
      {i.automatic && <EvidencePanel incidentId={i.id} />}
      {mayUpdate && !resolved && <UpdateForm i={i} />}
      <section className="sw-card" aria-labelledby="incident-updates">
        <header className="sw-card-head">
          <h3 id="incident-updates">{t('incidents.incidentPage.updates', { length: i.updates.length })}</h3>
        </header>
        <ol className="sw-list" reversed>
          {[...i.updates].reverse().map((u) => (
            <li key={u.id} className="sw-list-row">
              <div>
                <strong>{label(u.status)}</strong> <span className="sw-muted">{fmtTime(u.created_at, '')}</span>
                <p className="sw-wrap-anywhere">{u.message}</p>
              </div>
            </li>
          ))}
        </ol>
        {i.automatic && <p className="sw-muted">{t('incidents.incidentPage.theStatusPageShowsThe')}</p>}
      </section>
      <IncidentSummary incidentId={i.id} companyId={i.company_id} />
      <EscalationPages incidentId={i.id} />
      {i.signals.length > 0 && <RelatedSignals i={i} />}
      {resolved && <Postmortem i={i} mayEdit={mayUpdate} />}
    </>
  );
}

const SIGNAL_LABELS: Record<IncidentDetail['signals'][number]['type'], ConsoleKey> = { ssl_warning: 'incidents.signal.sslWarning' };

/** Warnings about the same monitor and cause, kept here instead of notifying again. Never public. */
function RelatedSignals({ i }: { i: IncidentDetail }) {
  return (
    <section className="sw-card" aria-labelledby="incident-signals">
      <header className="sw-card-head">
        <h3 id="incident-signals">{t('incidents.incidentPage.relatedSignals', { length: i.signals.length })}</h3>
      </header>
      <p className="sw-muted">{t('incidents.incidentPage.otherWarningsAboutTheSame')}</p>
      <ol className="sw-list">
        {i.signals.map((s) => (
          <li key={s.id} className="sw-list-row">
            <div>
              <strong>{s.title}</strong>{' '}
              <span className="sw-muted">
                {fmtTime(s.created_at, '')} · {t(SIGNAL_LABELS[s.type])} · {s.severity[0].toUpperCase() + s.severity.slice(1)}
              </span>
              <p className="sw-wrap-anywhere sw-signal-message">{s.message}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The impact, changed in place: what the incident means for the status page's headline. On an
 * open automatic incident it is also what its monitor's outage counts as there.
 */
function ImpactForm({ i, onSaved }: { i: IncidentDetail; onSaved: (a: { ok: boolean; text: string }) => void }) {
  const [impact, setImpact] = useState<Impact>(i.impact);
  const [busy, setBusy] = useState(false);
  useEffect(() => setImpact(i.impact), [i.impact]);
  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const o = await editIncident(i.id, { impact });
    setBusy(false);
    onSaved(
      o.ok
        ? { ok: true, text: t('incidents.incidentPage.impactSaved', { value: IMPACT_LABEL[o.data.impact] }) }
        : { ok: false, text: o.text },
    );
  }
  return (
    <>
      <form className="sw-row sw-impact-form" onSubmit={(e) => void save(e)}>
        <label htmlFor="incident-impact" className="sw-visually-hidden">
          {t('incidents.incidentPage.impact')}
        </label>
        <select id="incident-impact" value={impact} onChange={(e) => setImpact(e.target.value as Impact)}>
          <Options items={[...IMPACTS].reverse().map((v) => [v, IMPACT_LABEL[v]])} />
        </select>
        <button type="submit" className="sw-btn sw-btn-small" disabled={busy || impact === i.impact}>
          {t('incidents.incidentPage.saveImpact')}
        </button>
      </form>
      <p className="sw-muted sw-impact-hint">
        {i.automatic ? t('incidents.incidentPage.openedAsAPartialOutage') : t('incidents.incidentPage.anOpenPublicIncidentRaises')}
      </p>
    </>
  );
}

/** Who acknowledged, when and how; or that nobody has yet. */
function acknowledgement(i: IncidentDetail): string {
  if (!i.acknowledged_at) return i.resolved_at ? 'No' : t('incidents.escalationPages.notYet');
  const who = i.acknowledged_by?.name || t('incidents.incidentPage.someone');
  const how = !i.acknowledged_via || i.acknowledged_via === 'console' ? 'in the console' : `through the link in ${i.acknowledged_via}`;
  return t('incidents.incidentPage.by', { time: fmtTime(i.acknowledged_at, ''), who: who, how: how });
}

function UpdateForm({ i }: { i: IncidentDetail }) {
  const [status, setStatus] = useState<IncidentStatus>(i.status === 'open' ? 'investigating' : i.status);
  const [message, setMessage] = useState('');
  const [translations, setTranslations] = useState<Translations>({});
  const [error, setError] = useState<string | undefined>();
  const [langErrors, setLangErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  async function send(s: IncidentStatus, e?: FormEvent) {
    e?.preventDefault();
    if (!message.trim()) return setError(t('incidents.incidentPage.messageIsRequired'));
    setBusy(true);
    const o = await postUpdate(i.id, s, message, filledTranslations(translations));
    setBusy(false);
    if (o.ok) {
      setMessage('');
      setTranslations({});
      setError(undefined);
      setLangErrors({});
    } else {
      setLangErrors(languageErrors(o.fields, 'message_translations'));
      setError(o.fields.message ?? o.text);
    }
  }
  return (
    <section className="sw-card" aria-labelledby="incident-post">
      <header className="sw-card-head">
        <h3 id="incident-post">{t('incidents.incidentPage.postAnUpdate')}</h3>
      </header>
      <form className="sw-form" onSubmit={(e) => void send(status, e)} noValidate>
        <Field id="u-status" label={t('incidents.incidentPage.status')} required>
          <select id="u-status" value={status} onChange={(e) => setStatus(e.target.value as IncidentStatus)}>
            <Options items={WRITTEN_STATUSES.map((s) => [s, label(s)])} />
          </select>
        </Field>
        <Field id="u-message" label={t('incidents.incidentPage.message')} required error={error}>
          <textarea id="u-message" rows={3} maxLength={5000} value={message} onChange={(e) => setMessage(e.target.value)} />
        </Field>
        <OtherLanguages
          id="u-message-lang"
          field="Message"
          multiline
          maxLength={5000}
          value={translations}
          onChange={setTranslations}
          errors={langErrors}
        />
        <div className="sw-row">
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            {t('incidents.incidentPage.postUpdate')}
          </button>
          <button type="button" className="sw-btn" disabled={busy} onClick={() => void send('resolved')}>
            {t('incidents.incidentPage.resolveWithThisMessage')}
          </button>
        </div>
      </form>
    </section>
  );
}

function Postmortem({ i, mayEdit }: { i: IncidentDetail; mayEdit: boolean }) {
  const [text, setText] = useState(i.postmortem ?? '');
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const o = await editIncident(i.id, { postmortem: text });
    setBusy(false);
    setNote(o.ok ? { ok: true, text: t('incidents.incidentPage.postmortemSaved') } : { ok: false, text: o.text });
  }
  return (
    <section className="sw-card" aria-labelledby="incident-postmortem">
      <header className="sw-card-head">
        <h3 id="incident-postmortem">{t('incidents.incidentPage.postmortem')}</h3>
      </header>
      {!mayEdit && <p className="sw-wrap-anywhere">{i.postmortem ?? t('incidents.incidentPage.noPostmortemWasWritten')}</p>}
      {mayEdit && (
        <form className="sw-form" onSubmit={(e) => void save(e)} noValidate>
          <Field
            id="pm-text"
            label={t('incidents.incidentPage.whatHappenedWhyAndWhat')}
            hint={t('incidents.incidentPage.shownOnTheStatusPage')}
          >
            <textarea id="pm-text" rows={6} maxLength={20000} value={text} onChange={(e) => setText(e.target.value)} />
          </Field>
          {note && (
            <div className={note.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
              {note.text}
            </div>
          )}
          <div className="sw-row">
            <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
              {t('incidents.incidentPage.savePostmortem')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
