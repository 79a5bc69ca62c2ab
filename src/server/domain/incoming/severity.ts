// Severities of incoming alerts, pure: what a label value means (the source's map, else these
// common words), and the incident severity of a set of alerts (incidents have no `info`: it reads low).
import type { Severity } from '../../../lib/status.ts';

export type AlertLevel = 'critical' | 'high' | 'medium' | 'low' | 'info';
export const ALERT_LEVELS: readonly AlertLevel[] = ['info', 'low', 'medium', 'high', 'critical'];

/** The words Prometheus rules and Grafana alerts use most for `severity`, as our levels. */
export const DEFAULT_SEVERITY_MAP: Readonly<Record<string, AlertLevel>> = {
  critical: 'critical',
  page: 'critical',
  error: 'high',
  high: 'high',
  warning: 'medium',
  warn: 'medium',
  medium: 'medium',
  low: 'low',
  info: 'info',
  none: 'info',
};

/** The level of one alert: its label value through the source's map (case-insensitive), else the source's default. */
export function levelOf(value: string | undefined, map: Record<string, AlertLevel>, fallback: AlertLevel): AlertLevel {
  if (value === undefined) return fallback;
  const v = value.trim().toLowerCase();
  return map[v] ?? fallback;
}

export const highestLevel = (levels: AlertLevel[], fallback: AlertLevel): AlertLevel =>
  levels.reduce((a, b) => (ALERT_LEVELS.indexOf(b) > ALERT_LEVELS.indexOf(a) ? b : a), levels[0] ?? fallback);

export const incidentSeverityOf = (level: AlertLevel): Severity => (level === 'info' ? 'low' : level);
