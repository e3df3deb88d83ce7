import type { BrandingConfiguration, PaywallCopy, WallCopy, WALL_COPY as CONTRACT_WALL_COPY } from '@gatehouse/contracts';
import { applicableConfiguration, type BrandingValues } from './theme';

/* Spec 8.1 / decisions J2: which element shows which copy field. The mapping is exhaustive. */

export type ElementName = 'login-form' | 'register-form' | 'auth-modal' | 'paywall-modal' | 'inline-paywall' | 'sticky-bar' | 'content-lock' | 'meter-notice';

export const ELEMENT_NAMES: ElementName[] = ['login-form', 'register-form', 'auth-modal', 'paywall-modal', 'inline-paywall', 'sticky-bar', 'content-lock', 'meter-notice'];

/** The contracts' table (the elements import only types from there: docs/architecture.md). */
export const WALL_COPY: typeof CONTRACT_WALL_COPY = { hard: 'paywall', metered: 'paywall', soft: 'soft', registration: 'registration', newsletter: 'newsletter', data: 'data' };
const WALLS: WallCopy[] = ['paywall', 'soft', 'registration', 'newsletter', 'data'];

export type CopyField =
  | 'authHeading'
  | 'authDescription'
  | 'authRegisterHeading'
  | 'authRegisterDescription'
  | `${WallCopy}${'Heading' | 'Description' | 'CtaText'}`
  | 'meterNoticeText'
  | 'meterRegisterText';

const walls = (...parts: Array<'Heading' | 'Description' | 'CtaText'>): CopyField[] => WALLS.flatMap((wall) => parts.map((part) => `${wall}${part}` as CopyField));

/** Spec 8.1's mapping, each paywall field standing for its type's fields too (docs/branding.md). */
export const COPY_FIELDS: Record<ElementName, CopyField[]> = {
  'login-form': ['authHeading', 'authDescription'],
  'register-form': ['authRegisterHeading', 'authRegisterDescription'],
  'auth-modal': ['authHeading', 'authDescription', 'authRegisterHeading', 'authRegisterDescription'],
  'paywall-modal': walls('Heading', 'Description', 'CtaText'),
  'inline-paywall': walls('Heading', 'Description', 'CtaText'),
  'sticky-bar': walls('Heading', 'CtaText'),
  'content-lock': walls('Heading', 'CtaText'),
  'meter-notice': ['meterNoticeText', 'meterRegisterText'],
};

/** The HTML attribute of a branding field: its name in kebab case (decisions J2). */
export const attributeOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A wall's own copy (the paywall's `copy`) stands in for its type's fields. */
const RULE_PART: Record<string, keyof PaywallCopy> = { Heading: 'heading', Description: 'description', CtaText: 'ctaText' };
const ruleCopyOf = (field: CopyField): keyof PaywallCopy | undefined => RULE_PART[/^(?:paywall|soft|registration|newsletter|data)(\w+)$/.exec(field)?.[1] ?? ''];

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * The copy an element shows for a field, or null for the message table's default: the element's
 * attribute, else the paywall rule's own copy (experiment variant applied), else the fetched
 * branding (not in `generic` mode). A field the element is not listed for is always null.
 */
export function resolveCopy(
  element: ElementName,
  field: CopyField,
  attributes: BrandingValues,
  fetched: BrandingConfiguration | null | undefined,
  ruleCopy?: PaywallCopy | null,
): string | null {
  if (!COPY_FIELDS[element].includes(field)) return null;
  const part = ruleCopyOf(field);
  const fromRule = part ? ruleCopy?.[part] : undefined;
  for (const candidate of [attributes[field], fromRule, applicableConfiguration(fetched)[field]]) if (present(candidate)) return candidate;
  return null;
}
