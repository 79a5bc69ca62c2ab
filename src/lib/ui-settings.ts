// The console's look, per user (spec section 9, "Default UI settings: theme cyan, font
// Montserrat, light version on"). Shared by the server (validation, defaults, the page's first
// paint) and the console (the Appearance card). Pure.

export const UI_THEMES = ['cyan', 'blue', 'green', 'purple', 'company'] as const;
export type UiTheme = (typeof UI_THEMES)[number];
export const UI_FONTS = ['montserrat', 'system'] as const;
export type UiFont = (typeof UI_FONTS)[number];

export interface UiSettings {
  theme: UiTheme;
  font: UiFont;
  /** true: the light version (dark text on light surfaces); false: the dark one */
  light_version: boolean;
}

export const DEFAULT_UI_SETTINGS: UiSettings = { theme: 'cyan', font: 'montserrat', light_version: true };

export const UI_THEME_LABEL: Record<UiTheme, string> = {
  cyan: 'Cyan',
  blue: 'Blue',
  green: 'Green',
  purple: 'Purple',
  company: 'Company colours',
};

export const UI_FONT_LABEL: Record<UiFont, string> = { montserrat: 'Montserrat', system: "This device's font" };

export function isUiTheme(v: unknown): v is UiTheme {
  return typeof v === 'string' && (UI_THEMES as readonly string[]).includes(v);
}

export function isUiFont(v: unknown): v is UiFont {
  return typeof v === 'string' && (UI_FONTS as readonly string[]).includes(v);
}

/** Stored values as settings: anything unknown (an older or newer value) reads as the default. */
export function uiSettingsOf(row: { theme?: unknown; font?: unknown; light_version?: unknown } | null | undefined): UiSettings {
  return {
    theme: isUiTheme(row?.theme) ? row.theme : DEFAULT_UI_SETTINGS.theme,
    font: isUiFont(row?.font) ? row.font : DEFAULT_UI_SETTINGS.font,
    light_version:
      row?.light_version === undefined || row?.light_version === null ? DEFAULT_UI_SETTINGS.light_version : !!row.light_version,
  };
}

/** The attributes on <html> that the console's theme tokens (theme.css) key on. */
export function uiSettingsAttributes(s: UiSettings): { 'data-theme': UiTheme; 'data-font': UiFont; 'data-light': 'on' | 'off' } {
  return { 'data-theme': s.theme, 'data-font': s.font, 'data-light': s.light_version ? 'on' : 'off' };
}
