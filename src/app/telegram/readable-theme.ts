/**
 * Text that reads in every palette: Telegram's own default palettes draw hints, links and button
 * labels below the 4.5:1 contrast WCAG AA asks of text (grey #999999 on #efeff3 is 2.5:1), and a
 * customer's custom theme can be worse. Each text colour the client sends is moved toward black
 * or white, in the smallest step that reads on every background it is drawn on; a colour that
 * already reads is left as the client sent it.
 */
import { themeParams } from '@telegram-apps/sdk-react';

type Hex = `#${string}`;
/** Theme params as Telegram clients send them: snake_case keys, `#rrggbb` values. */
export type ThemeColors = Partial<Record<string, Hex>>;

/** WCAG AA for normal-size text. */
export const READABLE_CONTRAST = 4.5;

/** The backgrounds the app and the kit draw text on. */
export const BACKGROUNDS = [
  'bg_color',
  'secondary_bg_color',
  'section_bg_color',
  'header_bg_color',
];
/** The text colours drawn on them. */
export const TEXTS = [
  'text_color',
  'hint_color',
  'subtitle_text_color',
  'section_header_text_color',
  'destructive_text_color',
];
/** Text colours also drawn on a light tint of themselves (the kit's bezeled buttons). */
export const TINTED_TEXTS = ['link_color', 'accent_text_color'];
/** The strongest tint of its own accent the kit puts under a bezeled button's label. */
const KIT_TINT = 0.15;

const channels = (hex: string): readonly number[] =>
  [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

const toHex = (rgb: readonly number[]): Hex =>
  `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** `a` mixed with `share` of `b`. */
const mix = (a: string, b: string, share: number): Hex => {
  const to = channels(b);
  return toHex(channels(a).map((c, i) => c + ((to[i] ?? c) - c) * share));
};

/** Relative luminance (WCAG 2.1). */
function luminance(hex: string): number {
  const [r = 0, g = 0, b = 0] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours (WCAG 2.1), from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

const isHex = (value: string | undefined): value is Hex =>
  value !== undefined && /^#[0-9a-f]{6}$/i.test(value);

/**
 * `color` moved toward black (on light backgrounds) or white (on dark ones) until it reads on
 * every background `under` gives for it; unchanged if it already does.
 */
function readableOn(color: Hex, under: (candidate: Hex) => readonly Hex[]): Hex {
  const lightBackgrounds = under(color).every(
    (bg) => contrastRatio(bg, '#000000') >= contrastRatio(bg, '#ffffff'),
  );
  const pole = lightBackgrounds ? '#000000' : '#ffffff';
  for (let step = 0; step <= 40; step += 1) {
    const candidate = step === 0 ? color : mix(color, pole, step / 40);
    if (under(candidate).every((bg) => contrastRatio(candidate, bg) >= READABLE_CONTRAST)) {
      return candidate;
    }
  }
  return pole;
}

/**
 * The colours of `theme` that must change for its text to read: text colours on every
 * background, link and accent colours also on their own tint, and the button's colour under its
 * label. Colours absent from the theme are left to the kit's defaults.
 */
export function readableTheme(theme: ThemeColors): ThemeColors {
  const backgrounds = BACKGROUNDS.map((key) => theme[key]).filter(isHex);
  if (backgrounds.length === 0) return {};
  const changed: Record<string, Hex> = {};
  const adjust = (key: string, under: (candidate: Hex) => readonly Hex[]) => {
    const color = theme[key];
    if (!isHex(color)) return;
    const readable = readableOn(color, under);
    if (readable !== color) changed[key] = readable;
  };
  for (const key of TEXTS) adjust(key, () => backgrounds);
  for (const key of TINTED_TEXTS) {
    adjust(key, (c) => [...backgrounds, ...backgrounds.map((bg) => mix(bg, c, KIT_TINT))]);
  }
  const label = theme['button_text_color'];
  if (isHex(label)) adjust('button_color', () => [label]);
  return changed;
}

/** Sets the theme's CSS variables (`--tg-theme-*`, which the kit reads) for each colour given. */
function setThemeVariables(colors: ThemeColors): void {
  const root = document.documentElement.style;
  for (const [key, value] of Object.entries(colors)) {
    if (value !== undefined) root.setProperty(`--tg-theme-${key.replaceAll('_', '-')}`, value);
  }
}

/**
 * Binds the theme's CSS variables with the readable colours in place of those that would not
 * read, now and whenever the client's theme changes.
 */
export function bindReadableTheme(): void {
  if (!themeParams.bindCssVars.isAvailable()) return;
  themeParams.bindCssVars();
  // Subscribed after the SDK's own binding, so on a theme change this runs second and wins.
  const apply = () => setThemeVariables(readableTheme(themeParams.state()));
  apply();
  themeParams.state.sub(apply);
}

/** Shows `theme`, made readable, where no Telegram client sends one. */
export function showReadableTheme(theme: ThemeColors): void {
  setThemeVariables({ ...theme, ...readableTheme(theme) });
}
