// api_flow monitors: a journey of HTTP requests (`steps`), each with assertions and extractions
// into {{variables}}; company secrets as {{secrets.NAME}}. The check is checkers/api-flow.ts; the
// last run is kept in last_answers and shown as the monitor view's `last_run`.
import { API_FLOW_FIELDS, DEFAULT_SSL_PORT } from '../../../lib/monitor-kinds.ts';
import { certificateExpiring } from './certificate-warnings.ts';
import { apiFlowChecker, type ApiFlowConfig, type ApiFlowStep } from '../checkers/api-flow.ts';
import { validateApiSteps } from './api-flow-steps.ts';
import type { Kind } from './kind.ts';
import { keptRun, runStateView } from './synthetic-run.ts';

/** What read-only users see instead of a header value or body (they may carry credentials). */
const HIDDEN_SECRET = '(hidden)';

export const apiFlowKind: Kind<ApiFlowConfig> = {
  fields: API_FLOW_FIELDS,
  reportsHttpCode: true,

  validate(pick) {
    const problems: Record<string, string> = {};
    const checked = validateApiSteps(pick('steps'));
    if (checked.problem) problems.steps = checked.problem;
    const config: ApiFlowConfig = { steps: checked.steps, degraded_threshold_ms: pick('degraded_threshold_ms') ?? null };
    return { config, problems, target: checked.host ? { host: checked.host, field: 'steps' } : null };
  },

  check: apiFlowChecker,

  async afterResult(r) {
    // A certificate the flow's https steps saw warns like an https check's (the one expiring first).
    if (r.outcome.status !== 'down') await certificateExpiring(r, undefined);
    const run = r.outcome.detail?.run;
    if (run) return { last_answers: keptRun(run) };
  },

  present(config, { secrets }) {
    // Header values and bodies carry credentials when a step does not use {{secrets.…}}: only
    // those who may change the monitor see them, as for http monitors.
    const steps = config.steps == null ? null : secrets ? config.steps : config.steps.map(masked);
    return { steps, degraded_threshold_ms: config.degraded_threshold_ms ?? null };
  },

  stateView: runStateView,

  // The first step's https host, which the security suite's TLS analysis grades.
  tlsEndpoint(config) {
    try {
      const url = new URL(config.steps?.[0]?.url ?? '');
      if (url.protocol !== 'https:') return null;
      return { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port: url.port ? Number(url.port) : DEFAULT_SSL_PORT };
    } catch {
      return null;
    }
  },

  publicTarget(config) {
    try {
      return new URL(config.steps?.[0]?.url ?? '').hostname;
    } catch {
      return null;
    }
  },
};

function masked(step: ApiFlowStep): ApiFlowStep {
  return {
    ...step,
    ...(step.headers ? { headers: Object.fromEntries(Object.keys(step.headers).map((k) => [k, HIDDEN_SECRET])) } : {}),
    ...(step.body != null ? { body: HIDDEN_SECRET } : {}),
  };
}
