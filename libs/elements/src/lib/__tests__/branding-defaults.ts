import type { BrandingConfiguration } from '@gatehouse/contracts';

/** The API's answer for a publication that never saved branding (contracts' BRANDING_DEFAULTS, which browser code may not import). */
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
  customCss: null,
};
