// The console's English catalogue, by namespace (one JSON file per screen area). A new
// namespace: en/<ns>.json and de/<ns>.json, one import and one entry in en.ts and de.ts.
import shell from './en/shell.json' with { type: 'json' };
import pagePanels from './en/pagePanels.json' with { type: 'json' };

export const CONSOLE_EN = {
  shell,
  pagePanels,
};
