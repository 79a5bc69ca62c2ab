// The next 7 or 14 days of a schedule, drawn in HTML: a row per layer (where that layer decides
// who is on call), a row of overrides, and the final row (who is on call). Day lines fall on
// the schedule zone's midnights. Narrow screens scroll the drawing sideways inside its frame;
// the list under it says the same hand-offs in words. A red line marks now.
import type { Schedule, Shift } from './store.ts';
import { t } from '../../i18n.ts';
import { dayLines, place } from './timeline.ts';
import { formatInZone, shortInZone } from '../../../../lib/zoned-time.ts';

const COLOURS = 8;

/** The same person keeps one colour across the rows (by their order among the schedule's people). */
function colourOf(schedule: Schedule, userId: string): number {
  const i = schedule.people.findIndex((p) => p.id === userId);
  return Math.max(i, 0) % COLOURS;
}

interface Row {
  key: string;
  label: string;
  shifts: Shift[];
}

export function rowsOf(schedule: Schedule, shifts: readonly Shift[]): Row[] {
  const rows: Row[] = schedule.layers.map((l, i) => ({
    key: `layer-${i}`,
    label: l.name || t('onCall.timeline.layer', { n: i + 1 }),
    shifts: shifts.filter((s) => s.layer === i && s.override_id === null),
  }));
  rows.push({ key: 'overrides', label: t('onCall.timeline.overrides'), shifts: shifts.filter((s) => s.override_id !== null) });
  rows.push({ key: 'final', label: t('onCall.timeline.final'), shifts: [...shifts] });
  return rows;
}

export function Timeline(props: { schedule: Schedule; shifts: readonly Shift[]; from: number; days: number; now: number }) {
  const { schedule, shifts, from, days, now } = props;
  const to = from + days * 86_400_000;
  const zone = schedule.time_zone;
  const lines = dayLines(from, to, zone);
  const nowAt = now > from && now < to ? ((now - from) / (to - from)) * 100 : null;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
    <section className="sw-tl-scroll" aria-label={t('onCall.timeline.region', { days })} tabIndex={0}>
      <div className={`sw-tl sw-tl-${days}`}>
        <div className="sw-tl-row sw-tl-days" aria-hidden="true">
          <div className="sw-tl-label" />
          <div className="sw-tl-track">
            {lines.map((l) => (
              <span key={l.at} className="sw-tl-day" style={{ left: `${l.left}%` }}>
                {l.label}
              </span>
            ))}
          </div>
        </div>
        {rowsOf(schedule, shifts).map((row) => (
          <div key={row.key} className={`sw-tl-row${row.key === 'final' ? ' sw-tl-final' : ''}`}>
            <div className="sw-tl-label">{row.label}</div>
            <ul className="sw-tl-track" aria-label={row.label}>
              {lines.map((l) => (
                <li key={l.at} className="sw-tl-line" style={{ left: `${l.left}%` }} aria-hidden="true" />
              ))}
              {nowAt !== null && <li className="sw-tl-now" style={{ left: `${nowAt}%` }} aria-hidden="true" />}
              {row.shifts.length === 0 && <li className="sw-tl-empty">{t('onCall.timeline.nobody')}</li>}
              {place(
                row.shifts.map((s) => ({ ...s, start: Date.parse(s.start), end: Date.parse(s.end), shift: s })),
                from,
                to,
              ).map(({ item, left, width }) => {
                const when = t('onCall.timeline.when', {
                  start: formatInZone(item.start, zone),
                  end: shortInZone(item.end, zone, item.start),
                });
                return (
                  <li
                    key={`${item.start}-${item.user_id}`}
                    className={`sw-tl-shift sw-tl-c${colourOf(schedule, item.user_id)}${item.override_id ? ' sw-tl-override' : ''}`}
                    style={{ left: `${left}%`, width: `${width}%` }}
                    title={t('onCall.timeline.title', { name: item.user_name, when })}
                  >
                    <span className="sw-tl-name">{item.user_name}</span>
                    <span className="sw-visually-hidden">, {when}</span>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}
