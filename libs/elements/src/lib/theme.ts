import type { BrandingConfiguration } from '@gatehouse/contracts';

/*
 * Spec 8.1 / decisions J2: the four themed CSS properties and their precedence, highest first:
 * the element's HTML attribute, the fetched branding configuration (not in `generic` mode),
 * the CSS custom property on the element or an ancestor, the built-in default.
 */

export type ThemeKey = 'primary' | 'primaryHover' | 'radius' | 'font';

export interface ThemeProperty {
  /** The public CSS custom property a page may set on the element or an ancestor. */
  cssProperty: string;
  /** The element's HTML attribute (the branding field in kebab case). */
  attribute: string;
  field: keyof BrandingConfiguration;
  fallback: string;
}

export const THEME: Record<ThemeKey, ThemeProperty> = {
  primary: { cssProperty: '--gatehouse-primary', attribute: 'brand-color', field: 'brandColor', fallback: '#6C5CE7' },
  primaryHover: { cssProperty: '--gatehouse-primary-hover', attribute: 'brand-color-hover', field: 'brandColorHover', fallback: '#5A4BD1' },
  radius: { cssProperty: '--gatehouse-radius', attribute: 'border-radius', field: 'borderRadius', fallback: '8px' },
  font: { cssProperty: '--gatehouse-font', attribute: 'font-family', field: 'fontFamily', fallback: 'system-ui' },
};

export const THEME_KEYS = Object.keys(THEME) as ThemeKey[];

/** The internal custom property each key resolves into inside the shadow roots. */
export const internalProperty = (key: ThemeKey): string => `--gh-${key === 'primaryHover' ? 'primary-hover' : key}`;

/** Branding fields as the element knows them: attributes it carries, and the fetched configuration. */
export type BrandingValues = Partial<Record<keyof BrandingConfiguration, string | null | undefined>>;

/** The fetched configuration, or nothing where `generic` mode says it does not apply (spec 2.7). */
export function applicableConfiguration(fetched: BrandingConfiguration | null | undefined): BrandingValues {
  if (!fetched || fetched.brandingMode === 'generic') return {};
  return fetched;
}

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/** A pixel radius given as a bare number ("12", as the configuration stores it) gets its unit. */
function cssValue(key: ThemeKey, value: string): string {
  return key === 'radius' && /^\d+(\.\d+)?$/.test(value.trim()) ? `${value.trim()}px` : value.trim();
}

/** One layer's value for the key: hover comes from its own field, else derived from that layer's brand colour. */
function layerValue(key: ThemeKey, layer: BrandingValues): string | undefined {
  const own = layer[THEME[key].field];
  if (present(own)) return cssValue(key, own);
  if (key === 'primaryHover' && present(layer.brandColor)) return darken(layer.brandColor) ?? undefined;
  return undefined;
}

/**
 * The CSS value of each internal property: the attribute's, else the fetched configuration's,
 * else a `var()` of the public custom property (inherited from the element or an ancestor) with
 * the built-in default as its fallback.
 */
export function resolveTheme(attributes: BrandingValues, fetched: BrandingConfiguration | null | undefined): Record<ThemeKey, string> {
  const configuration = applicableConfiguration(fetched);
  const resolved = {} as Record<ThemeKey, string>;
  for (const key of THEME_KEYS) {
    resolved[key] = layerValue(key, attributes) ?? layerValue(key, configuration) ?? `var(${THEME[key].cssProperty}, ${THEME[key].fallback})`;
  }
  return resolved;
}

/** The declarations a shadow root's outer wrapper carries. */
export function themeDeclarations(resolved: Record<ThemeKey, string>): string {
  return THEME_KEYS.map((key) => `${internalProperty(key)}: ${resolved[key]}`).join('; ');
}

/** `#RGB` or `#RRGGBB` about 10 % darker through HSL lightness, as the dashboard derives it; null for anything else. */
export function darken(hex: string, amount = 0.1): string | null {
  const rgb = parseHex(hex);
  if (!rgb) return null;
  const [h, s, l] = rgbToHsl(rgb);
  return hslToHex(h, s, Math.max(0, l - amount));
}

export function parseHex(value: string): [number, number, number] | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  if (!match) return null;
  const digits = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}

function rgbToHsl([r, g, b]: [number, number, number]): [number, number, number] {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === rn ? (gn - bn) / d + (gn < bn ? 6 : 0) : max === gn ? (bn - rn) / d + 2 : (rn - gn) / d + 4;
  return [h / 6, s, l];
}

function hslToHex(h: number, s: number, l: number): string {
  const hue = (p: number, q: number, t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channels = s === 0 ? [l, l, l] : [hue(p, q, h + 1 / 3), hue(p, q, h), hue(p, q, h - 1 / 3)];
  return `#${channels.map((c) => Math.round(c * 255).toString(16).padStart(2, '0')).join('')}`;
}
