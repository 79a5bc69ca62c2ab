// The console's look and language, per user (spec section 9, "Default UI settings: theme cyan, font
// Montserrat, light version on"). Shared by the server (validation, defaults, the page's first
// paint) and the console (the Appearance card). Pure.

export const UI_THEMES = ['cyan', 'blue', 'green', 'purple', 'company'] as const;
export type UiTheme = (typeof UI_THEMES)[number];
export const UI_FONTS = ['montserrat', 'system'] as const;
export type UiFont = (typeof UI_FONTS)[number];

/** The console's languages a user may choose (CONSOLE_LOCALES of src/lib/i18n); null follows the browser. */
export const UI_LANGUAGES = ['en', 'de'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

export interface UiSettings {
  theme: UiTheme;
  font: UiFont;
  /** true: the light version (dark text on light surfaces); false: the dark one */
  light_version: boolean;
  /** the console's language; null: the best match of the browser's languages */
  language: UiLanguage | null;
}

export const DEFAULT_UI_SETTINGS: UiSettings = { theme: 'cyan', font: 'montserrat', light_version: true, language: null };

export function isUiTheme(v: unknown): v is UiTheme {
  return typeof v === 'string' && (UI_THEMES as readonly string[]).includes(v);
}

export function isUiFont(v: unknown): v is UiFont {
  return typeof v === 'string' && (UI_FONTS as readonly string[]).includes(v);
}

export function isUiLanguage(v: unknown): v is UiLanguage {
  return typeof v === 'string' && (UI_LANGUAGES as readonly string[]).includes(v);
}

/** Stored values as settings: anything unknown (an older or newer value) reads as the default. */
export function uiSettingsOf(
  row: { theme?: unknown; font?: unknown; light_version?: unknown; language?: unknown } | null | undefined,
): UiSettings {
  return {
    theme: isUiTheme(row?.theme) ? row.theme : DEFAULT_UI_SETTINGS.theme,
    font: isUiFont(row?.font) ? row.font : DEFAULT_UI_SETTINGS.font,
    light_version:
      row?.light_version === undefined || row?.light_version === null ? DEFAULT_UI_SETTINGS.light_version : !!row.light_version,
    language: isUiLanguage(row?.language) ? row.language : null,
  };
}

/** The attributes on <html> that the console's theme tokens (theme.css) key on. */
export function uiSettingsAttributes(s: UiSettings): { 'data-theme': UiTheme; 'data-font': UiFont; 'data-light': 'on' | 'off' } {
  return { 'data-theme': s.theme, 'data-font': s.font, 'data-light': s.light_version ? 'on' : 'off' };
}
