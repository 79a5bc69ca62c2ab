// What the probe sends and receives (openapi/schemas/probes.yaml), and how an outcome becomes a result.
import type { SyntheticRun } from '../server/engine/kinds/synthetic-run.ts';
import type { CheckOutcome } from '../server/engine/checkers/types.ts';

export interface WireResult {
  id: string;
  monitor_id: string;
  checked_at: number;
  status: CheckOutcome['status'];
  response_time_ms: number | null;
  http_code: number | null;
  error: string | null;
  timings: CheckOutcome['timings'];
  cert_expires_at: number | null;
  cert_issuer: string | null;
  cert_subject: string | null;
  detail?: {
    cert_valid?: boolean;
    cert_problem?: string;
    answers?: string[];
    run?: SyntheticRun;
    screenshots?: Array<{ index: number; png: string }>;
  };
}

/** Screenshots one result carries at most, and their base64 at most together (openapi ProbeResult) */
export const RESULT_SHOTS_MAX = 5;
export const RESULT_SHOTS_MAX_CHARS = 2 * 1024 * 1024;

/**
 * A browser run's screenshots for the platform to keep: the failing step's first (the one a user
 * opens), then the `screenshot` steps' in order, while they fit the bound; the rest are left out.
 */
export function wireShots(shots: ReadonlyArray<{ index: number; png: Buffer }>, failedIndex: number | null) {
  const ordered = [...shots].sort((a, b) => Number(b.index === failedIndex) - Number(a.index === failedIndex) || a.index - b.index);
  const out: Array<{ index: number; png: string }> = [];
  let chars = 0;
  for (const s of ordered) {
    const png = s.png.toString('base64');
    if (out.length >= RESULT_SHOTS_MAX || chars + png.length > RESULT_SHOTS_MAX_CHARS) continue;
    chars += png.length;
    out.push({ index: s.index, png });
  }
  return out;
}

export interface Assignment {
  id: string;
  type: string;
  config: Record<string, unknown>;
  interval_seconds: number;
  timeout_seconds: number;
  /** The company secrets its steps name, opened (api_flow, browser) */
  secrets?: Record<string, string>;
}

export interface AssignmentsAnswer {
  version: string;
  changed: boolean;
  full: boolean;
  count: number;
  ids_hash: string;
  allow_private_targets: boolean | string[] | null;
  monitors: Assignment[];
  removed: string[];
}

export interface HelloAnswer {
  probe_id: string;
  location: { slug: string; name: string; private: boolean };
  min_version: string;
  upgrade: boolean;
}

export interface ResultsAnswer {
  accepted: number;
  duplicates: number;
  refused: Array<{ id: string; reason: string }>;
}

const cap = (s: string | null | undefined, n: number) => (s == null ? null : s.slice(0, n));

/**
 * A result with an id of its own: this run's stream and the result's number in it
 * (lib/probe-result-ids.ts), unique across a location's probes and restarts.
 */
export function toWire(id: string, monitorId: string, checkedAt: number, o: CheckOutcome): WireResult {
  const d = o.detail;
  return {
    id,
    monitor_id: monitorId,
    checked_at: Math.round(checkedAt),
    status: o.status,
    response_time_ms: o.responseTimeMs,
    http_code: o.httpCode,
    error: cap(o.error, 1000),
    timings: o.timings,
    cert_expires_at: o.certExpiresAt,
    cert_issuer: cap(o.certIssuer, 500),
    cert_subject: cap(o.certSubject, 500),
    ...(d
      ? {
          detail: {
            ...(d.certValid !== undefined ? { cert_valid: d.certValid } : {}),
            ...(d.certProblem !== undefined ? { cert_problem: d.certProblem.slice(0, 500) } : {}),
            ...(d.answers !== undefined ? { answers: d.answers.slice(0, 100).map((a) => a.slice(0, 500)) } : {}),
            // A synthetic run without its screenshots' data URLs: the PNGs travel once, as `screenshots`.
            ...(d.run !== undefined ? { run: { ...d.run, steps: d.run.steps.map(({ screenshot: _drop, ...step }) => step) } } : {}),
            ...(d.screenshots?.length
              ? { screenshots: wireShots(d.screenshots, d.run?.steps.find((st) => st.status === 'failed')?.index ?? null) }
              : {}),
          },
        }
      : {}),
  };
}
