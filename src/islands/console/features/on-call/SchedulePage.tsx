// /on-call/:id: one schedule. Who is on call now and next, the timeline of the next 7 or 14 days
// (per layer, overrides, and the final row), the overrides (add, remove), the schedule's private
// calendar address, and the editor. Viewers get the same page without a control that writes.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { go } from '../../router.ts';
import { t, tr } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { Confirm } from '../../ui/Modal.tsx';
import { Options } from '../../ui/ModalForm.tsx';
import type { ScreenProps } from '../../ui/screen-props.ts';
import { handoffText, inputOf, messageAt, restrictionText } from './editor.ts';
import { BothZones, FeedControls, NextCell, NowCell } from './OnCallParts.tsx';
import { ScheduleEditor } from './ScheduleEditor.tsx';
import {
  $onCallAlert,
  $schedule,
  $shifts,
  addOverride,
  DAY,
  deleteSchedule,
  issueScheduleFeed,
  loadSchedule,
  loadShifts,
  removeOverride,
  revokeScheduleFeed,
  saveSchedule,
  type Schedule,
} from './store.ts';
import { Timeline } from './Timeline.tsx';
import { formatInZone, msToZonedInput, shortInZone, zonedInputToMs } from '../../../../lib/zoned-time.ts';
import './on-call.css';

/** The timeline starts at today's midnight in the schedule's zone. */
function startOfToday(zone: string): number {
  return zonedInputToMs(`${msToZonedInput(Date.now(), zone).slice(0, 10)}T00:00`, zone);
}

export function SchedulePage({ params }: ScreenProps) {
  const id = params.id ?? '';
  const role = useStore($role);
  const schedule = useStore($schedule);
  const alert = useStore($onCallAlert);
  const mayEdit = can(role, 'update', 'settings');
  useEffect(() => {
    void loadSchedule(id);
  }, [id]);
  useEffect(() => () => $onCallAlert.set(null), []);
  const name = schedule.status === 'ready' ? schedule.data.name : t('onCall.schedule.fallbackName');
  return (
    <div className="sw-admin sw-oncall">
      <nav aria-label={t('onCall.breadcrumb')} className="sw-breadcrumb">
        <a href="/on-call">{t('onCall.crumb')}</a> / <span aria-current="page">{name}</span>
      </nav>
      <h2 className="sw-page-title">{name}</h2>
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      {schedule.status === 'loading' && <Skeleton rows={4} />}
      {schedule.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {schedule.httpStatus === 404 ? t('onCall.schedule.notFound') : schedule.message}
        </div>
      )}
      {schedule.status === 'ready' && <ScheduleView key={schedule.data.id} s={schedule.data} mayEdit={mayEdit} />}
    </div>
  );
}

function Section({ id, title, action, children }: { id: string; title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <section className="sw-card" aria-labelledby={id}>
      <header className="sw-card-head sw-row-between">
        <h3 id={id}>{title}</h3>
        {action}
      </header>
      {children}
    </section>
  );
}

function ScheduleView({ s, mayEdit }: { s: Schedule; mayEdit: boolean }) {
  const [days, setDays] = useState<7 | 14>(7);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const from = startOfToday(s.time_zone);
  // the shifts follow every change of the schedule (an edit or an override answers the new one)
  useEffect(() => {
    void loadShifts(s.id, from, days);
  }, [s, days, from]);
  return (
    <>
      <Section id="oncall-now" title={t('onCall.schedule.whoTitle')}>
        <dl className="sw-dl sw-oncall-now">
          <dt>{t('onCall.schedule.now')}</dt>
          <dd data-testid="on-call-now">
            <NowCell shift={s.on_call_now} zone={s.time_zone} />
          </dd>
          <dt>{t('onCall.schedule.next')}</dt>
          <dd data-testid="on-call-next">
            <NextCell shift={s.on_call_next} zone={s.time_zone} />
          </dd>
        </dl>
      </Section>
      <Section
        id="oncall-timeline"
        title={t('onCall.schedule.timeline')}
        action={
          <fieldset className="sw-row sw-oncall-range">
            <legend className="sw-visually-hidden">{t('onCall.schedule.daysShown')}</legend>
            {([7, 14] as const).map((n) => (
              <button key={n} type="button" className="sw-btn sw-btn-small" aria-pressed={days === n} onClick={() => setDays(n)}>
                {t('onCall.schedule.days', { n })}
              </button>
            ))}
          </fieldset>
        }
      >
        <p className="sw-muted">{t('onCall.schedule.midnight', { zone: s.time_zone })}</p>
        <ShiftsView s={s} from={from} days={days} />
      </Section>
      <Overrides s={s} mayEdit={mayEdit} />
      <Section id="oncall-feed" title={t('onCall.schedule.calendar')}>
        <p className="sw-muted">{t('onCall.schedule.calendarNote')}</p>
        {mayEdit ? (
          <FeedControls
            id="schedule-feed-url"
            label={t('onCall.schedule.feedLabel')}
            issue={() => issueScheduleFeed(s.id)}
            revoke={() => revokeScheduleFeed(s.id)}
          />
        ) : (
          <p>{t('onCall.schedule.feedViewer')}</p>
        )}
      </Section>
      <Section
        id="oncall-layers"
        title={t('onCall.schedule.layers')}
        action={
          mayEdit && (
            <button type="button" className="sw-btn sw-btn-small sw-btn-danger" onClick={() => setConfirmDelete(true)}>
              {t('onCall.schedule.delete')}
            </button>
          )
        }
      >
        {mayEdit ? (
          <ScheduleEditor
            initial={inputOf(s)}
            people={s.people}
            submitLabel={t('onCall.schedule.save')}
            save={(input) => saveSchedule(s.id, input)}
          />
        ) : (
          <LayersSummary s={s} />
        )}
      </Section>
      {confirmDelete && (
        <Confirm
          title={t('onCall.schedule.delete')}
          danger
          confirmLabel={t('onCall.schedule.delete')}
          text={t('onCall.schedule.deleteText', { name: s.name })}
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => {
            setConfirmDelete(false);
            void deleteSchedule(s.id).then((o) => (o.ok ? go('/on-call') : $onCallAlert.set({ ok: false, text: o.text })));
          }}
        />
      )}
    </>
  );
}

function ShiftsView({ s, from, days }: { s: Schedule; from: number; days: number }) {
  const shifts = useStore($shifts);
  if (shifts.status === 'loading') return <Skeleton rows={3} />;
  if (shifts.status === 'error')
    return (
      <div className="sw-banner sw-banner-error" role="alert">
        {shifts.message}
      </div>
    );
  return (
    <>
      <Timeline schedule={s} shifts={shifts.data} from={from} days={days} now={Date.now()} />
      <details className="sw-oncall-details">
        <summary>{t('onCall.schedule.handoffList', { count: shifts.data.length })}</summary>
        <ul className="sw-list-plain">
          {shifts.data.map((x) => (
            <li key={`${x.start}-${x.user_id}`}>
              {tr(x.override_id ? 'onCall.schedule.handoffOverride' : 'onCall.schedule.handoffItem', {
                b: (chunks) => <strong>{chunks}</strong>,
                name: x.user_name,
                start: formatInZone(Date.parse(x.start), s.time_zone),
                end: shortInZone(Date.parse(x.end), s.time_zone, Date.parse(x.start)),
              })}
            </li>
          ))}
        </ul>
      </details>
    </>
  );
}

function LayersSummary({ s }: { s: Schedule }) {
  const nameOf = (id: string) => s.people.find((p) => p.id === id)?.name ?? t('onCall.editor.formerMember');
  return (
    <div className="sw-oncall-stack">
      <p>{tr('onCall.summary.zone', { b: (chunks) => <strong>{chunks}</strong>, zone: s.time_zone })}</p>
      <ol className="sw-oncall-summary">
        {s.layers.map((l, i) => (
          <li key={i}>
            {tr(l.restrictions.length > 0 ? 'onCall.summary.layerRestricted' : 'onCall.summary.layer', {
              b: (chunks) => <strong>{chunks}</strong>,
              name: l.name || t('onCall.timeline.layer', { n: i + 1 }),
              people: l.user_ids.map(nameOf).join(' → '),
              handoff: handoffText(l),
              start: l.rotation_start.replace('T', ' '),
              restrictions: l.restrictions.map(restrictionText).join(t('onCall.summary.and')),
            })}
          </li>
        ))}
      </ol>
      {s.layers.length === 0 && <p className="sw-muted">{t('onCall.summary.noLayers')}</p>}
    </div>
  );
}

function Overrides({ s, mayEdit }: { s: Schedule; mayEdit: boolean }) {
  const [removing, setRemoving] = useState<string | null>(null);
  return (
    <Section id="oncall-overrides" title={t('onCall.overrides.title')}>
      <p className="sw-muted">{t('onCall.overrides.note')}</p>
      {s.overrides.length === 0 ? (
        <p className="sw-empty">{t('onCall.overrides.empty')}</p>
      ) : (
        <ul className="sw-list-plain sw-oncall-overrides">
          {s.overrides.map((o) => (
            <li key={o.id} className="sw-row-between">
              <span>
                {tr('onCall.overrides.item', {
                  b: (chunks) => <strong>{chunks}</strong>,
                  name: o.user_name,
                  start: <BothZones at={o.start} zone={s.time_zone} />,
                  end: <BothZones at={o.end} zone={s.time_zone} />,
                })}
              </span>
              {mayEdit && (
                <button
                  type="button"
                  className="sw-btn sw-btn-small"
                  disabled={removing === o.id}
                  aria-label={t('onCall.overrides.remove', { name: o.user_name })}
                  onClick={() => {
                    setRemoving(o.id);
                    void removeOverride(s.id, o.id).then((r) => {
                      setRemoving(null);
                      if (!r.ok) $onCallAlert.set({ ok: false, text: r.text });
                    });
                  }}
                >
                  {t('onCall.editor.remove')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {mayEdit && <OverrideForm s={s} />}
    </Section>
  );
}

function OverrideForm({ s }: { s: Schedule }) {
  const zone = s.time_zone;
  const nextHour = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
  const [userId, setUserId] = useState(s.people[0]?.id ?? '');
  const [start, setStart] = useState(msToZonedInput(nextHour, zone));
  const [end, setEnd] = useState(msToZonedInput(nextHour + DAY, zone));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const a = zonedInputToMs(start, zone);
    const b = zonedInputToMs(end, zone);
    const local: Record<string, string> = {};
    if (Number.isNaN(a)) local.start = t('onCall.error.startRequired');
    if (Number.isNaN(b)) local.end = t('onCall.error.endRequired');
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    const o = await addOverride(s.id, { user_id: userId, start: new Date(a).toISOString(), end: new Date(b).toISOString() });
    setBusy(false);
    setAlert(o.ok ? null : o.text);
    setErrors(o.ok ? {} : o.fields);
  }
  const err = (k: string) => messageAt(errors, k);
  return (
    <form className="sw-form sw-oncall-override-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="override-form-title">
      <h4 id="override-form-title">{t('onCall.overrides.formTitle')}</h4>
      {alert && (
        <div className="sw-banner sw-banner-error" role="alert">
          {alert}
        </div>
      )}
      <div className="sw-form-grid">
        <div className="sw-field">
          <label htmlFor="override-person">{t('onCall.overrides.who')}</label>
          <select id="override-person" value={userId} onChange={(e) => setUserId(e.target.value)}>
            <Options items={s.people.map((p) => [p.id, p.name] as const)} />
          </select>
          {err('user_id') && (
            <small className="sw-field-error" role="alert">
              {err('user_id')}
            </small>
          )}
        </div>
        <div className="sw-field">
          <label htmlFor="override-start">{t('onCall.overrides.from', { zone })}</label>
          <input id="override-start" type="datetime-local" value={start} onChange={(e) => setStart(e.target.value)} />
          {err('start') && (
            <small className="sw-field-error" role="alert">
              {err('start')}
            </small>
          )}
        </div>
        <div className="sw-field">
          <label htmlFor="override-end">{t('onCall.overrides.to', { zone })}</label>
          <input id="override-end" type="datetime-local" value={end} onChange={(e) => setEnd(e.target.value)} />
          {err('end') && (
            <small className="sw-field-error" role="alert">
              {err('end')}
            </small>
          )}
        </div>
      </div>
      <div className="sw-row">
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy || !userId}>
          {t('onCall.overrides.add')}
        </button>
      </div>
    </form>
  );
}
