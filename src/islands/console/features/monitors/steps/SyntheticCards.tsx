// The monitor page's cards of an api_flow or browser monitor: its last run (each step's status,
// duration and error, the failing step's kept screenshot, Web Vitals, console errors, failed
// requests) and the time of each step over the recent checks.
import { lazy, Suspense } from 'react';
import { t } from '../../../i18n.ts';
import { Card, Skeleton } from '../../../ui/Card.tsx';
import { fmtTime } from '../../../ui/format.ts';
import type { CheckResult } from '../monitor-page-store.ts';
import { stepLabel, type Step, type SyntheticRun } from './model.ts';
import { RunResult } from './RunResult.tsx';

// the chart and its library load after the page's figures
const StepTimingChart = lazy(() => import('./StepTimingChart.tsx').then((m) => ({ default: m.StepTimingChart })));

interface SyntheticMonitor {
  id: string;
  steps?: Step[] | null;
  last_run?: SyntheticRun | null;
}

export function LastRunCard({ m }: { m: SyntheticMonitor }) {
  const run = m.last_run ?? null;
  return (
    <Card
      title={t('monitors.run.last')}
      testId="last-run"
      action={run ? <span className="sw-muted sw-small">{fmtTime(run.checked_at, '')}</span> : undefined}
    >
      {run ? (
        <RunResult run={run} monitorId={m.id} title={t('monitors.run.stepsOfLast')} />
      ) : (
        <p className="sw-empty">{t('monitors.run.notYet')}</p>
      )}
    </Card>
  );
}

export function StepTimingCard({ m, checks }: { m: SyntheticMonitor; checks: readonly CheckResult[] | null }) {
  const names = (m.steps ?? []).map((s, i) => stepLabel(s, i));
  return (
    <Card title={t('monitors.run.timePerStep')} testId="step-timings">
      {checks === null ? (
        <Skeleton rows={3} />
      ) : (
        <Suspense fallback={<Skeleton rows={3} />}>
          <StepTimingChart checks={checks} names={names} />
        </Suspense>
      )}
      <p className="sw-muted sw-small">{t('monitors.run.timingNote')}</p>
    </Card>
  );
}
