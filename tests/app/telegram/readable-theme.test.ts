import { describe, expect, it } from 'vitest';
import { DARK_THEME, LIGHT_THEME } from '../../../src/app/telegram/default-themes';
import {
  BACKGROUNDS,
  READABLE_CONTRAST,
  TEXTS as ONLY_TEXTS,
  TINTED_TEXTS,
  contrastRatio,
  readableTheme,
  showReadableTheme,
  type ThemeColors,
} from '../../../src/app/telegram/readable-theme';

const TEXTS = [...ONLY_TEXTS, ...TINTED_TEXTS];

/** The lowest contrast of any text colour on any background of `theme`, and the label on its button. */
function lowestContrast(theme: ThemeColors): number {
  const ratios = TEXTS.flatMap((text) =>
    BACKGROUNDS.map((bg) => contrastRatio(theme[text] ?? '#000000', theme[bg] ?? '#ffffff')),
  );
  ratios.push(contrastRatio(theme['button_text_color'] ?? '', theme['button_color'] ?? ''));
  return Math.min(...ratios);
}

describe('text reads at WCAG AA contrast (4.5:1) in every Telegram palette', () => {
  it('measures contrast as WCAG does: black on white 21:1, a colour on itself 1:1', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#2481cc', '#2481cc')).toBe(1);
    // Telegram's light hint on its light grey: why this exists.
    expect(contrastRatio('#999999', '#efeff3')).toBeLessThan(2.6);
  });

  it('knows where every colour of a Telegram palette is drawn', () => {
    const placed = [...BACKGROUNDS, ...TEXTS, 'button_color', 'button_text_color'];
    // Neither is under or in text: a separator line and the bottom bar behind the main button.
    const notText = ['section_separator_color', 'bottom_bar_bg_color'];
    expect(
      Object.keys(LIGHT_THEME).filter((key) => ![...placed, ...notText].includes(key)),
    ).toEqual([]);
  });

  it.each([
    ['light', LIGHT_THEME],
    ['dark', DARK_THEME],
  ] as const)(
    'Telegram’s default %s palette, made readable, has every text at 4.5:1',
    (_, theme) => {
      expect(lowestContrast(theme)).toBeLessThan(READABLE_CONTRAST);
      const readable = { ...theme, ...readableTheme(theme) };
      expect(lowestContrast(readable)).toBeGreaterThanOrEqual(READABLE_CONTRAST);
    },
  );

  it('darkens text on a light palette and lightens it on a dark one', () => {
    const light = readableTheme(LIGHT_THEME);
    expect(contrastRatio(light['hint_color'] ?? '', '#000000')).toBeLessThan(
      contrastRatio(LIGHT_THEME.hint_color, '#000000'),
    );
    const dark = readableTheme(DARK_THEME);
    expect(contrastRatio(dark['hint_color'] ?? '', '#ffffff')).toBeLessThan(
      contrastRatio(DARK_THEME.hint_color, '#ffffff'),
    );
  });

  it('leaves a palette that already reads as the client sent it', () => {
    const plain: ThemeColors = {
      bg_color: '#ffffff',
      secondary_bg_color: '#ffffff',
      text_color: '#000000',
      hint_color: '#595959',
      link_color: '#0b57d0',
      button_color: '#0b57d0',
      button_text_color: '#ffffff',
    };
    expect(readableTheme(plain)).toEqual({});
  });

  it('changes nothing when the client sends no backgrounds (the kit’s defaults stay)', () => {
    expect(readableTheme({ hint_color: '#999999' })).toEqual({});
  });

  it('shows a palette where no client sends one through the variables the kit reads', () => {
    showReadableTheme(LIGHT_THEME);
    const style = document.documentElement.style;
    expect(style.getPropertyValue('--tg-theme-bg-color')).toBe('#ffffff');
    const hint = style.getPropertyValue('--tg-theme-hint-color');
    expect(contrastRatio(hint, LIGHT_THEME.secondary_bg_color)).toBeGreaterThanOrEqual(4.5);
  });
});
