import { parseHex } from './theme';

/* WCAG 2.x relative luminance and contrast: the text on the primary colour is whichever of black and white reads better. */

/** `#RGB`, `#RRGGBB` or `rgb()/rgba()` as `getComputedStyle` reports colours; null otherwise. */
export function parseColor(value: string): [number, number, number] | null {
  const hex = parseHex(value);
  if (hex) return hex;
  const match = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i.exec(value.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

export function relativeLuminance([r, g, b]: [number, number, number]): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

export const WHITE = '#ffffff';
export const BLACK = '#000000';

/** White or black, whichever contrasts more with `background` (white when the colour cannot be read). */
export function textColorOn(background: string): typeof WHITE | typeof BLACK {
  const rgb = parseColor(background);
  if (!rgb) return WHITE;
  return contrastRatio(rgb, [255, 255, 255]) >= contrastRatio(rgb, [0, 0, 0]) ? WHITE : BLACK;
}
