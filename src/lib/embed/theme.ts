// How the embeds look and which words they say, shared by the script (embed.js) and the frames
// (/embed/badge, /embed/banner): the options a company passes, read the same way in both, the
// colours of each state, and the catalogue key of each state's words. Pure; imports only src/lib.
import { isHexColour } from '../formats.ts';
import { STATUS_COLOR, type Indicator, type Status } from '../status.ts';
import type { EmbedImpact } from './status.ts';

export type EmbedTheme = 'auto' | 'light' | 'dark';
export const EMBED_THEMES: readonly EmbedTheme[] = ['auto', 'light', 'dark'];

/** The colour of an ongoing event's impact (the page's own colours). */
export const IMPACT_COLOR: Record<EmbedImpact, string> = {
  minor: STATUS_COLOR.degraded,
  major: '#ea580c',
  critical: STATUS_COLOR.down,
  maintenance: STATUS_COLOR.maintenance,
};

/** Text, background and border of each theme; `auto` follows prefers-color-scheme. */
export interface ThemeColors {
  text: string;
  muted: string;
  bg: string;
  border: string;
}
export const THEME_COLORS: Record<'light' | 'dark', ThemeColors> = {
  light: { text: '#111827', muted: '#4b5563', bg: '#ffffff', border: '#d1d5db' },
  dark: { text: '#f9fafb', muted: '#d1d5db', bg: '#111827', border: '#4b5563' },
};

export function embedTheme(value: unknown): EmbedTheme {
  return typeof value === 'string' && (EMBED_THEMES as readonly string[]).includes(value) ? (value as EmbedTheme) : 'auto';
}

/** `data-accent` / `accent=`: '#rrggbb' or 'rrggbb' (a '#' in a URL must be escaped), else the brand colour. */
export function embedAccent(value: unknown, brand: string): string {
  if (typeof value !== 'string') return brand;
  const hex = value.startsWith('#') ? value : `#${value}`;
  return isHexColour(hex) ? hex.toLowerCase() : brand;
}

/** The words of the page's state: the catalogue key 'status.<indicator>', or 'status.unknown'. */
export function statusKey(status: Status, indicator: Indicator): `status.${Indicator | 'unknown'}` {
  return status === 'unknown' ? 'status.unknown' : `status.${indicator}`;
}
