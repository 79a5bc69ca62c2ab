// Every tool we import from: one module per source, registered in this one table. A source reads
// its export file (its own format, checked: a wrong file gets a clear ImportFileError) and maps it
// to a monitors-as-code file plus what cannot be imported and why (map.ts of each source).
import type { Mapped } from './uptime-kuma/map.ts';
import { mapKuma } from './uptime-kuma/map.ts';
import { readKuma } from './uptime-kuma/read.ts';
import { mapBetterStack, refineBetterStack } from './better-stack/map.ts';
import { readBetterStack } from './better-stack/read.ts';
import { mapUptimeRobot } from './uptimerobot/map.ts';
import { readUptimeRobot } from './uptimerobot/read.ts';
import { mapStatuspage } from './statuspage/map.ts';
import { readStatuspage } from './statuspage/read.ts';

export interface ImportSource {
  /** What the user reads ("Uptime Kuma") */
  label: string;
  /** The export this source reads, in one line (CLI usage, console hint) */
  file: string;
  /** Reads and maps the export at `path` (throws the source's file error on a file it cannot read) */
  load(path: string): Mapped;
}

export const IMPORT_SOURCE_TABLE = {
  'uptime-kuma': {
    label: 'Uptime Kuma',
    file: 'its database (data/kuma.db, 2.x) or JSON backup (1.x)',
    load: (path) => mapKuma(readKuma(path)),
  },
  'better-stack': {
    label: 'Better Stack Uptime',
    file: 'a folder of its API answers saved with curl (monitors.json, heartbeats.json, status-pages.json, ...)',
    load: (path) => {
      const mapped = mapBetterStack(readBetterStack(path));
      mapped.refine = (api) => refineBetterStack(mapped, api);
      return mapped;
    },
  },
  uptimerobot: {
    label: 'UptimeRobot',
    file: "its API v2 getMonitors answer (JSON) or the dashboard's CSV export of monitors",
    load: (path) => mapUptimeRobot(readUptimeRobot(path)),
  },
  statuspage: {
    label: 'Atlassian Statuspage',
    file: 'a JSON file of its REST API answers: components, component groups, incidents, subscribers',
    load: (path) => mapStatuspage(readStatuspage(path)),
  },
} satisfies Record<string, ImportSource>;

export type ImportSourceId = keyof typeof IMPORT_SOURCE_TABLE;
export const IMPORT_SOURCES = Object.keys(IMPORT_SOURCE_TABLE) as ImportSourceId[];

export function importSource(id: string): ImportSource | undefined {
  return Object.hasOwn(IMPORT_SOURCE_TABLE, id) ? (IMPORT_SOURCE_TABLE as Record<string, ImportSource>)[id] : undefined;
}
