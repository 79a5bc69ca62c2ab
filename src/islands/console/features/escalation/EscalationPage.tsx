// /settings/escalation: whom to alert next while an incident is not acknowledged, e.g. "Slack at
// once, then SMS to the on-call admin after 10 minutes". Each step is sent once per incident;
// acknowledging or resolving the incident stops the rest.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { t } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { $policy, $policyChannels, $policySchedules, loadPolicy, savePolicy, validateSteps, type Policy, type Step } from './store.ts';

export function EscalationPage({ title }: { title: string }) {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const policy = useStore($policy);
  const superAdmin = role === 'super_admin';
  const scope = superAdmin ? tenant : null;
  useEffect(() => {
    if (!superAdmin || tenant) void loadPolicy(scope);
  }, [scope, superAdmin, tenant]);
  return (
    <div className="sw-admin">
      <nav aria-label={t('escalation.breadcrumb')} className="sw-breadcrumb">
        <a href="/settings">{t('escalation.settings')}</a> / <span aria-current="page">{t('escalation.crumb')}</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      <p className="sw-muted">{t('escalation.intro')}</p>
      {superAdmin && !tenant ? (
        <p className="sw-banner">{t('escalation.chooseTenant')}</p>
      ) : (
        <>
          {policy.status === 'loading' && <Skeleton rows={3} />}
          {policy.status === 'error' && (
            <div className="sw-banner sw-banner-error" role="alert">
              {policy.message}
            </div>
          )}
          {policy.status === 'ready' && <PolicyForm key={policy.data.company_id} policy={policy.data} tenant={scope} />}
        </>
      )}
    </div>
  );
}

function PolicyForm({ policy, tenant }: { policy: Policy; tenant: string | null }) {
  const channels = useStore($policyChannels);
  const schedules = useStore($policySchedules);
  const [steps, setSteps] = useState<Step[]>(policy.steps);
  const [repeat, setRepeat] = useState(policy.repeat);
  const [notifyTeam, setNotifyTeam] = useState(policy.notify_team_at_last_step);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const change = (i: number, patch: Partial<Step>) => setSteps(steps.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const toggle = (list: string[], id: string, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));
  async function save(e: FormEvent) {
    e.preventDefault();
    const found = validateSteps(steps);
    setErrors(found);
    if (Object.keys(found).length) return setNote({ ok: false, text: t('escalation.needChange') });
    if (!(Number.isInteger(repeat) && repeat >= 0 && repeat <= 9)) return setNote({ ok: false, text: t('escalation.error.repeat') });
    setBusy(true);
    const r = await savePolicy(steps, { repeat, notify_team_at_last_step: notifyTeam }, tenant);
    setBusy(false);
    setNote(r.ok ? { ok: true, text: steps.length ? t('escalation.saved') : t('escalation.off') } : { ok: false, text: r.text });
  }
  const last = steps.at(-1)?.after_minutes ?? -10;
  return (
    <form className="sw-form" onSubmit={(e) => void save(e)} noValidate>
      {steps.length === 0 && <p className="sw-muted">{t('escalation.noSteps')}</p>}
      <ol className="sw-steps">
        {steps.map((s, i) => (
          <li key={i} className="sw-card sw-step">
            <h3 id={`step-${i}`}>{t('escalation.step', { n: i + 1 })}</h3>
            <div className="sw-field">
              <label htmlFor={`step-${i}-minutes`}>{t('escalation.minutes')}</label>
              <input
                id={`step-${i}-minutes`}
                type="number"
                min={0}
                max={10080}
                step={1}
                value={Number.isNaN(s.after_minutes) ? '' : s.after_minutes}
                aria-describedby={errors[i] ? `step-${i}-error` : undefined}
                onChange={(e) => change(i, { after_minutes: e.target.valueAsNumber })}
              />
            </div>
            <fieldset className="sw-fieldset">
              <legend>{t('escalation.channels')}</legend>
              {channels.length === 0 && <span className="sw-muted">{t('escalation.noChannels')}</span>}
              {channels.map((c) => (
                <label key={c.id} className="sw-check">
                  <input
                    type="checkbox"
                    checked={s.channel_ids.includes(c.id)}
                    onChange={(e) => change(i, { channel_ids: toggle(s.channel_ids, c.id, e.target.checked) })}
                  />
                  {c.name}
                  {!c.enabled && t('escalation.channelDisabledSuffix')}
                </label>
              ))}
            </fieldset>
            <fieldset className="sw-fieldset">
              <legend>{t('escalation.people')}</legend>
              {policy.people.map((p) => (
                <label key={p.id} className="sw-check">
                  <input
                    type="checkbox"
                    checked={s.user_ids.includes(p.id)}
                    onChange={(e) => change(i, { user_ids: toggle(s.user_ids, p.id, e.target.checked) })}
                  />
                  {p.name}
                </label>
              ))}
            </fieldset>
            {(schedules.length > 0 || (s.schedule_ids?.length ?? 0) > 0) && (
              <fieldset className="sw-fieldset">
                <legend>{t('escalation.schedules')}</legend>
                {schedules.map((x) => (
                  <label key={x.id} className="sw-check">
                    <input
                      type="checkbox"
                      checked={(s.schedule_ids ?? []).includes(x.id)}
                      onChange={(e) => change(i, { schedule_ids: toggle(s.schedule_ids ?? [], x.id, e.target.checked) })}
                    />
                    {t('escalation.wholeScheduleOnCall', { schedule: x.name })}
                  </label>
                ))}
              </fieldset>
            )}
            {errors[i] && (
              <p className="sw-field-error" role="alert" id={`step-${i}-error`}>
                {errors[i]}
              </p>
            )}
            <button
              type="button"
              className="sw-btn"
              aria-describedby={`step-${i}`}
              onClick={() => setSteps(steps.filter((_, j) => j !== i))}
            >
              {t('escalation.removeStep')}
            </button>
          </li>
        ))}
      </ol>
      {steps.length > 0 && (
        <div className="sw-card sw-step">
          <div className="sw-field">
            <label htmlFor="policy-repeat">{t('escalation.repeat')}</label>
            <input
              id="policy-repeat"
              type="number"
              min={0}
              max={9}
              step={1}
              value={Number.isNaN(repeat) ? '' : repeat}
              onChange={(e) => setRepeat(e.target.valueAsNumber)}
            />
          </div>
          <label className="sw-check">
            <input type="checkbox" checked={notifyTeam} onChange={(e) => setNotifyTeam(e.target.checked)} />
            {t('escalation.notifyTeam')}
          </label>
        </div>
      )}
      {note && (
        <div className={note.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {note.text}
        </div>
      )}
      <div className="sw-row">
        <button
          type="button"
          className="sw-btn"
          disabled={steps.length >= 10}
          onClick={() => setSteps([...steps, { after_minutes: last + 10, channel_ids: [], user_ids: [] }])}
        >
          {t('escalation.addStep')}
        </button>
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          {t('escalation.save')}
        </button>
      </div>
    </form>
  );
}
