// Which probe locations see it down and which see it up, as the engine judged when it opened
// the incident (incidents.down_where). Only for monitors checked from two or more locations: one
// location says nothing the incident does not.
import { iso, type EvidenceModule } from './module.ts';

export const locationsEvidence: EvidenceModule = {
  kind: 'locations',
  async build({ incident, monitor }) {
    const w = incident.down_where;
    if (!w) return [];
    const total = w.down.length + w.up.length + w.absent.length;
    if (total < 2) return [];
    return [
      {
        item: {
          kind: 'locations',
          summary: `Down ${w.text}.`,
          at: iso(incident.started_at),
          source: { label: 'Monitor locations', href: `/monitors/${monitor.id}` },
          data: { down: w.down, up: w.up, absent: w.absent, down_count: w.down.length, locations: total },
        },
        short: `${w.down.length} of ${total} locations`,
      },
    ];
  },
};
