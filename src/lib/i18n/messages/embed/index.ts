// The embeds' catalogue (issue 32): the words of the status badge and incident banner a company
// puts on its own site (embed.js and the /embed/badge and /embed/banner frames), in the twelve
// PUBLIC_LOCALES. The incident titles are the company's own text and are not translated here.
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

export type EmbedKey = keyof typeof en;

export const EMBED_AREA = defineArea<PublicLocale, EmbedKey>('embed', {
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
