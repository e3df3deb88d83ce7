import type { PaywallType } from './access';
import { requestPattern } from './patterns';

/* Branding configuration per publication (spec 2.7, 4.4, 8; decisions G2. Branding). */

export const BRANDING_MODES = ['generic', 'themed', 'custom'] as const;
/** generic: the default design; themed: colours, font, radius, logo and copy applied; custom: themed plus `customCss`. */
export type BrandingMode = (typeof BRANDING_MODES)[number];

/** Every field of spec 2.7; `null` where unset. */
export interface BrandingConfiguration {
  brandingMode: BrandingMode;
  brandColor: string | null;
  brandColorHover: string | null;
  logoUrl: string | null;
  borderRadius: string | null;
  fontFamily: string | null;
  authHeading: string | null;
  authDescription: string | null;
  authRegisterHeading: string | null;
  authRegisterDescription: string | null;
  paywallHeading: string | null;
  paywallDescription: string | null;
  paywallCtaText: string | null;
  /** Beyond spec 2.7: each other wall type's copy (the paywall fields are a subscription wall's, hard and metered), and the meter notice's (docs/branding.md). */
  softHeading: string | null;
  softDescription: string | null;
  softCtaText: string | null;
  registrationHeading: string | null;
  registrationDescription: string | null;
  registrationCtaText: string | null;
  newsletterHeading: string | null;
  newsletterDescription: string | null;
  newsletterCtaText: string | null;
  dataHeading: string | null;
  dataDescription: string | null;
  dataCtaText: string | null;
  meterNoticeText: string | null;
  meterRegisterText: string | null;
  customCss: string | null;
}

/** A partial update: an omitted field is unchanged, `null` clears it. `brandingMode` cannot be cleared. */
export type BrandingChanges = Partial<Omit<BrandingConfiguration, 'brandingMode'>> & { brandingMode?: BrandingMode };

export const BRANDING_DEFAULTS: BrandingConfiguration = {
  brandingMode: 'generic',
  brandColor: null,
  brandColorHover: null,
  logoUrl: null,
  borderRadius: null,
  fontFamily: null,
  authHeading: null,
  authDescription: null,
  authRegisterHeading: null,
  authRegisterDescription: null,
  paywallHeading: null,
  paywallDescription: null,
  paywallCtaText: null,
  softHeading: null,
  softDescription: null,
  softCtaText: null,
  registrationHeading: null,
  registrationDescription: null,
  registrationCtaText: null,
  newsletterHeading: null,
  newsletterDescription: null,
  newsletterCtaText: null,
  dataHeading: null,
  dataDescription: null,
  dataCtaText: null,
  meterNoticeText: null,
  meterRegisterText: null,
  customCss: null,
};

export const BRANDING_FIELDS = Object.keys(BRANDING_DEFAULTS) as ReadonlyArray<keyof BrandingConfiguration>;

/** Spec 8: advisory lengths of the copy fields, in characters, for the dashboard's warnings. Not enforced. */
export const BRANDING_COPY_SOFT_LIMITS = {
  authHeading: 40,
  authDescription: 120,
  authRegisterHeading: 40,
  authRegisterDescription: 120,
  paywallHeading: 40,
  paywallDescription: 120,
  paywallCtaText: 24,
  softHeading: 40,
  softDescription: 120,
  softCtaText: 24,
  registrationHeading: 40,
  registrationDescription: 120,
  registrationCtaText: 24,
  newsletterHeading: 40,
  newsletterDescription: 120,
  newsletterCtaText: 24,
  dataHeading: 40,
  dataDescription: 120,
  dataCtaText: 24,
  meterNoticeText: 60,
  meterRegisterText: 40,
} as const satisfies Partial<Record<keyof BrandingConfiguration, number>>;

/** Whose copy fields a wall of each type shows: hard and metered walls sell a subscription (the `paywall*` fields); each other type has its own (`newsletterHeading`, …). */
export type WallCopy = 'paywall' | 'soft' | 'registration' | 'newsletter' | 'data';
export const WALL_COPY: Record<PaywallType, WallCopy> = { hard: 'paywall', metered: 'paywall', soft: 'soft', registration: 'registration', newsletter: 'newsletter', data: 'data' };

/**
 * The locales whose message tables the web components fetch besides built-in English
 * (libs/elements/src/locales; docs/elements.md, "Messages"), served at /sdk/v1/messages-<lang>.json.
 */
export const ELEMENT_LOCALES = ['ar', 'de', 'es', 'fr'] as const;

/** Hard caps the API enforces: far above the soft limits, only to keep the stored configuration sane. */
export const BRANDING_COPY_MAX_CHARS = 2000;
export const BRANDING_CUSTOM_CSS_MAX_BYTES = 20 * 1024;

/** A publication's configuration and its revision: 0 until it first saved one, one more with every save. */
export interface BrandingRevision {
  configuration: BrandingConfiguration;
  revision: number;
}

export const BrandingRequests = {
  /** The publication's configuration; the defaults when it never saved one. */
  Get: requestPattern<{ publicationId: string }, BrandingRevision>('branding.configuration.get'),
  /**
   * Applies the changes (already validated by the gateway) and answers the whole configuration
   * after them. With `ifRevisions`, only while the stored revision is one of them (checked by the
   * write itself), else 412 `precondition_failed` and nothing changes.
   */
  Update: requestPattern<{ publicationId: string; changes: BrandingChanges; ifRevisions?: number[] }, BrandingRevision>('branding.configuration.update'),
} as const;
