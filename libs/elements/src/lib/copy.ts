import type { BrandingConfiguration, PaywallCopy } from '@gatehouse/contracts';
import { applicableConfiguration, type BrandingValues } from './theme';

/* Spec 8.1 / decisions J2: which element shows which copy field. The mapping is exhaustive. */

export type ElementName = 'login-form' | 'register-form' | 'auth-modal' | 'paywall-modal' | 'inline-paywall' | 'sticky-bar' | 'content-lock';

export const ELEMENT_NAMES: ElementName[] = ['login-form', 'register-form', 'auth-modal', 'paywall-modal', 'inline-paywall', 'sticky-bar', 'content-lock'];

export type CopyField =
  | 'authHeading'
  | 'authDescription'
  | 'authRegisterHeading'
  | 'authRegisterDescription'
  | 'paywallHeading'
  | 'paywallDescription'
  | 'paywallCtaText';

export const COPY_FIELDS: Record<ElementName, CopyField[]> = {
  'login-form': ['authHeading', 'authDescription'],
  'register-form': ['authRegisterHeading', 'authRegisterDescription'],
  'auth-modal': ['authHeading', 'authDescription', 'authRegisterHeading', 'authRegisterDescription'],
  'paywall-modal': ['paywallHeading', 'paywallDescription', 'paywallCtaText'],
  'inline-paywall': ['paywallHeading', 'paywallDescription', 'paywallCtaText'],
  'sticky-bar': ['paywallHeading', 'paywallCtaText'],
  'content-lock': ['paywallHeading', 'paywallCtaText'],
};

/** The HTML attribute of a branding field: its name in kebab case (decisions J2). */
export const attributeOf = (field: string): string => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const RULE_COPY: Partial<Record<CopyField, keyof PaywallCopy>> = { paywallHeading: 'heading', paywallDescription: 'description', paywallCtaText: 'ctaText' };

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
  const fromRule = RULE_COPY[field] ? ruleCopy?.[RULE_COPY[field]] : undefined;
  for (const candidate of [attributes[field], fromRule, applicableConfiguration(fetched)[field]]) if (present(candidate)) return candidate;
  return null;
}
