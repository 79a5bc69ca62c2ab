// The console's English catalogue, by namespace (one JSON file per screen area). A new
// namespace: en/<ns>.json and de/<ns>.json, one import and one entry in en.ts and de.ts.
import shell from './en/shell.json' with { type: 'json' };
import chatSubscribers from './en/chatSubscribers.json' with { type: 'json' };
import companyTexts from './en/companyTexts.json' with { type: 'json' };
import embed from './en/embed.json' with { type: 'json' };
import pagePanels from './en/pagePanels.json' with { type: 'json' };
import statusPageLanguages from './en/statusPageLanguages.json' with { type: 'json' };

export const CONSOLE_EN = {
  shell,
  chatSubscribers,
  companyTexts,
  embed,
  pagePanels,
  statusPageLanguages,
};
