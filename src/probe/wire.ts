// What the probe sends and receives (openapi/schemas/probes.yaml), and how an outcome becomes a result.
import { randomUUID } from 'node:crypto';
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
  detail?: { cert_valid?: boolean; cert_problem?: string; answers?: string[] };
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

/** A result with an id of its own (a random UUID: unique across a location's probes and restarts). */
export function toWire(monitorId: string, checkedAt: number, o: CheckOutcome): WireResult {
  const d = o.detail;
  return {
    id: randomUUID(),
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
          },
        }
      : {}),
  };
}
