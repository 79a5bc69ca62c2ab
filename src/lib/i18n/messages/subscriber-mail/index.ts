// The mails a status-page subscriber gets (confirmation, incident and maintenance notices, their
// subject lines and unsubscribe footers), in the twelve PUBLIC_LOCALES. The company's own texts in
// them (titles, update texts, component names) are not here: lib/i18n/company-text.ts picks the
// company's translation of those.
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

export type SubscriberMailKey = keyof typeof en;

export const SUBSCRIBER_MAIL_AREA = defineArea<PublicLocale, SubscriberMailKey>('subscriber-mail', {
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
