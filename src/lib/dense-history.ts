// A new monitor's history drawn densely from its first minute: while the last 24 hours hold
// fewer than a few hours with timed checks, hourly figures are a lone dot in an empty grid, so
// the list's sparkline shows the latest checks one by one and the monitor page's chart opens on
// them. Pure.

/** Hours with timed checks below which the last 24 hours are drawn per check. */
export const DENSE_BELOW_HOURS = 6;
/** Checks in the list's sparkline of a young monitor. */
export const SPARK_CHECKS = 24;
/** Checks in the monitor page's "Latest checks" chart. */
export const CHART_CHECKS = 60;

/** Whether the last 24 hours, with this many hours holding timed checks, are better drawn per check. */
export const drawPerCheck = (hoursWithTimedChecks: number): boolean => hoursWithTimedChecks < DENSE_BELOW_HOURS;

/** The monitor page chart's opening range, from the checks of each of the last 24 hours. */
export function openingChartRange(checksPerHour: ReadonlyArray<number>): 'checks' | '24h' {
  return drawPerCheck(checksPerHour.filter((n) => n > 0).length) ? 'checks' : '24h';
}
