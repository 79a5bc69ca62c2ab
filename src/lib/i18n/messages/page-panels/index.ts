// The status page's panels (issue 32): the response-time charts and the security panel, in the
// twelve PUBLIC_LOCALES. Their own area, so their words never collide with the page's catalogue.
import { defineArea } from '../../area.ts';
import type { PublicLocale } from '../../locales.ts';
import ar from './ar.json' with { type: 'json' };
import de from './de.json' with { type: 'json' };
import en from './en.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };
import fr from './fr.json' with { type: 'json' };
import he from './he.json' with { type: 'json' };
import it from './it.json' with { type: 'json' };
import ja from './ja.json' with { type: 'json' };
import nl from './nl.json' with { type: 'json' };
import pl from './pl.json' with { type: 'json' };
import pt from './pt.json' with { type: 'json' };
import zhCN from './zh-CN.json' with { type: 'json' };

export type PagePanelsKey = keyof typeof en;

export const PAGE_PANELS_AREA = defineArea<PublicLocale, PagePanelsKey>('page-panels', {
  en,
  de,
  fr,
  es,
  pt,
  it,
  nl,
  pl,
  ja,
  'zh-CN': zhCN,
  ar,
  he,
});
