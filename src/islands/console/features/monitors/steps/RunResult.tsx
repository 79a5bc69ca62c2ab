// What one run of an api_flow or browser monitor saw: each step with its status, duration and the
// error naming its assertion, a screenshot where the run kept one (a test run's data URL, or a kept
// screenshot of the monitor by id), the page's Web Vitals, its console errors and its failed
// requests. Shown by the dialog's Run now and by the monitor page's last run.
import { t } from '../../../i18n.ts';
import { fmtNumber } from '../../../ui/format.ts';
import type { StepResult, SyntheticRun, WebVitals } from './model.ts';

const TONE = { passed: 'green', failed: 'red', skipped: 'grey' } as const;

/** A kept screenshot's address (tenant-scoped like its monitor). */
export const screenshotUrl = (monitorId: string, screenshotId: string) =>
  `/api/v1/monitors/${encodeURIComponent(monitorId)}/screenshots/${encodeURIComponent(screenshotId)}`;

function screenshotOf(s: StepResult, monitorId: string | null): string | null {
  if (s.screenshot?.startsWith('data:image/')) return s.screenshot;
  if (s.screenshot_id && monitorId) return screenshotUrl(monitorId, s.screenshot_id);
  return null;
}

// Web Vitals keep their standard English names (Largest Contentful Paint …) in every language.
const inMs = (v: number) => t('monitors.ms', { ms: fmtNumber(v) });
const VITALS: Array<[keyof WebVitals, string, (v: number) => string]> = [
  ['lcp_ms', 'Largest Contentful Paint', inMs],
  ['cls', 'Cumulative Layout Shift', (v) => fmtNumber(v, 3)],
  ['inp_ms', 'Interaction to Next Paint', inMs],
  ['tbt_ms', 'Total Blocking Time', inMs],
];

export function RunResult(props: {
  run: SyntheticRun;
  monitorId: string | null;
  title: string;
  /** words added to an error (the dialog explains the address guard's refusals) */
  explain?: (error: string) => string;
}) {
  const { run, monitorId, title } = props;
  const explain = props.explain ?? ((e: string) => e);
  const failed = run.steps.find((s) => s.status === 'failed');
  const vitals = run.web_vitals ? VITALS.filter(([k]) => run.web_vitals?.[k] != null) : [];
  return (
    <div className="sw-run" data-testid="run-result">
      <p className="sw-run-summary">
        {failed
          ? t('monitors.run.failedAt', { index: failed.index, count: run.steps.length, name: failed.name })
          : t('monitors.run.allPassed', { count: run.steps.length })}
      </p>
      <ol className="sw-run-steps" aria-label={title}>
        {run.steps.map((s) => (
          <RunStep key={s.index} step={s} monitorId={monitorId} explain={explain} />
        ))}
      </ol>
      {vitals.length > 0 && (
        <>
          <h4 className="sw-mp-h3">Web Vitals</h4>
          <dl className="sw-mon-phases" data-testid="web-vitals">
            {vitals.map(([k, label, fmt]) => (
              <div key={k}>
                <dt>{label}</dt>
                <dd>{fmt(run.web_vitals?.[k] as number)}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      {run.console_errors.length > 0 && (
        <>
          <h4 className="sw-mp-h3">{t('monitors.run.consoleErrors', { count: run.console_errors.length })}</h4>
          <ul className="sw-mp-list sw-run-console">
            {run.console_errors.map((e, i) => (
              <li key={i}>
                <code>{e}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {run.failed_requests.length > 0 && (
        <>
          <h4 className="sw-mp-h3">{t('monitors.run.failedRequests', { count: run.failed_requests.length })}</h4>
          <ul className="sw-mp-list">
            {run.failed_requests.map((r, i) => (
              <li key={i}>
                <code className="sw-run-url">{r.url}</code>: {r.error}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** One step of a run: its status, name, time, the error naming its assertion and its screenshot. */
export function RunStep({
  step: s,
  monitorId,
  explain,
}: {
  step: StepResult;
  monitorId: string | null;
  explain: (error: string) => string;
}) {
  const tone = TONE[s.status];
  const text = t(`monitors.run.status.${s.status}`);
  const shot = screenshotOf(s, monitorId);
  return (
    <li className={`sw-run-step sw-run-${s.status}`} data-testid="run-step" data-status={s.status}>
      <div className="sw-run-line">
        <span className={`sw-pill sw-${tone}`}>{text}</span>
        <span className="sw-run-name">
          {s.index}. {s.name}
        </span>
        <span className="sw-muted sw-small">{s.duration_ms == null ? '' : inMs(s.duration_ms)}</span>
      </div>
      {s.error && <p className="sw-field-error sw-run-error">{explain(s.error)}</p>}
      {shot && (
        <a href={shot} target="_blank" rel="noopener" className="sw-run-shot">
          <img src={shot} alt={t('monitors.run.screenshot', { index: s.index, name: s.name })} loading="lazy" />
        </a>
      )}
    </li>
  );
}
