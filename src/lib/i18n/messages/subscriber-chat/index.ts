// The chat and SMS subscribers' catalogue (issue 32): what Slack, Teams, Discord and SMS subscribers
// read, and the page's forms that subscribe them, in the twelve PUBLIC_LOCALES.
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

export type SubscriberChatKey = keyof typeof en;

export const SUBSCRIBER_CHAT_AREA = defineArea<PublicLocale, SubscriberChatKey>('subscriber-chat', {
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
