// The first-steps card on a company admin's dashboard: four steps, each ticked when done, gone
// when all are done or it is dismissed. Shown only once the answer says there is something left.
// Where company admins may not invite, the team step says whom to ask instead of linking to an
// invitation they cannot send.
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $firstSteps, $invitePolicy, $remembered, doneSteps, loadFirstSteps, remember, type StepKey } from './first-steps.ts';
import './first-steps.css';
import { t } from '../../i18n.ts';

/** The steps, in the console's language when drawn. */
const steps = (): Array<{ key: StepKey; text: string; hint: string; href: (statusPage: string | null) => string | null }> => [
  { key: 'monitor', text: t('dashboard.firstSteps.addMonitor'), hint: t('dashboard.firstSteps.addMonitorHint'), href: () => '/monitors' },
  { key: 'status_page', text: t('dashboard.firstSteps.statusPage'), hint: t('dashboard.firstSteps.statusPageHint'), href: (url) => url },
  { key: 'alerts', text: t('dashboard.firstSteps.alerts'), hint: t('dashboard.firstSteps.alertsHint'), href: () => '/settings/alerts' },
  { key: 'team', text: t('dashboard.firstSteps.team'), hint: t('dashboard.firstSteps.teamHint'), href: () => '/team' },
];

export function FirstStepsCard({ userId }: { userId: string }) {
  const STEPS = steps();
  const load = useStore($firstSteps);
  const remembered = useStore($remembered);
  const policy = useStore($invitePolicy);
  useEffect(() => loadFirstSteps(userId), [userId]);
  if (load.status !== 'ready' || remembered.dismissed) return null;
  const done = doneSteps(load.data.steps, remembered);
  const count = STEPS.filter((s) => done[s.key]).length;
  if (count === STEPS.length) return null;
  return (
    <section className="sw-card sw-first-steps" aria-labelledby="first-steps-title" data-testid="first-steps">
      <header className="sw-card-head">
        <h3 id="first-steps-title">{t('dashboard.firstSteps.firstSteps')}</h3>
        <span className="sw-muted">{t('dashboard.firstSteps.ofDone', { count: count, length: STEPS.length })}</span>
      </header>
      <ol className="sw-first-steps-list">
        {STEPS.map((step) => {
          // the team step while this admin cannot invite: whom to ask, and no link
          const asking = step.key === 'team' && policy.status === 'ready' && !policy.data.may_invite && !done.team;
          const s = asking ? { ...step, text: t('dashboard.firstSteps.getYourTeamAdded'), hint: policy.data.ask ?? step.hint } : step;
          const href = asking ? null : s.href(load.data.status_page_url);
          return (
            <li key={s.key} className={done[s.key] ? 'sw-step-done' : undefined}>
              <span className="sw-step-mark" aria-hidden="true">
                {done[s.key] ? '✓' : ''}
              </span>
              <span>
                {href ? (
                  <a href={href} onClick={s.key === 'status_page' ? () => remember({ visitedStatusPage: true }) : undefined}>
                    {s.text}
                  </a>
                ) : (
                  s.text
                )}
                <span className="sw-visually-hidden">{done[s.key] ? t('dashboard.firstSteps.done') : t('dashboard.firstSteps.toDo')}</span>
                <span className="sw-muted sw-small sw-step-hint">{s.hint}</span>
              </span>
            </li>
          );
        })}
      </ol>
      <div className="sw-card-foot">
        <button type="button" className="sw-btn sw-btn-small" onClick={() => remember({ dismissed: true })}>
          {t('dashboard.firstSteps.dismiss')}
        </button>
      </div>
    </section>
  );
}
