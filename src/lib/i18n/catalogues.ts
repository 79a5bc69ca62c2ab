// Every catalogue area, for the catalogue test and tools: a new area (embeds, a channel's
// messages) is one folder under messages/ registered here. Pages and islands import their own
// area's index.ts, not this table, so a bundle carries only the languages it shows.
import type { CatalogueArea } from './area.ts';
import { CONSOLE_AREA } from './messages/console/index.ts';
import { PUBLIC_AREA } from './messages/public/index.ts';
import { EMBED_AREA } from './messages/embed/index.ts';
import { SUBSCRIBER_CHAT_AREA } from './messages/subscriber-chat/index.ts';
import { SUBSCRIBER_MAIL_AREA } from './messages/subscriber-mail/index.ts';
import { PAGE_PANELS_AREA } from './messages/page-panels/index.ts';

export const CATALOGUE_AREAS: readonly CatalogueArea<string, string>[] = [
  PUBLIC_AREA,
  CONSOLE_AREA,
  EMBED_AREA,
  SUBSCRIBER_CHAT_AREA,
  SUBSCRIBER_MAIL_AREA,
  PAGE_PANELS_AREA,
];
