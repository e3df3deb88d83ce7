import { BRANDING_DEFAULTS, BRANDING_FIELDS, WALL_COPY as CONTRACT_WALL_COPY, type BrandingConfiguration } from '@gatehouse/contracts';
import { COPY_FIELDS, ELEMENT_NAMES, WALL_COPY, attributeOf, resolveCopy, type CopyField } from '../copy';
import { MESSAGES } from '../messages';

/** Spec 8.1's fields. */
const ALL = ['authHeading', 'authDescription', 'authRegisterHeading', 'authRegisterDescription', 'paywallHeading', 'paywallDescription', 'paywallCtaText'] as const;
type SpecField = (typeof ALL)[number];
const everything = { ...BRANDING_DEFAULTS, brandingMode: 'themed', ...Object.fromEntries(ALL.map((f) => [f, `fetched ${f}`])) } as BrandingConfiguration;

describe('copy fields (spec 8.1)', () => {
  it('lands exactly on the elements the spec lists for each field', () => {
    const listed: Record<SpecField, string[]> = {
      authHeading: ['login-form', 'auth-modal'],
      authDescription: ['login-form', 'auth-modal'],
      authRegisterHeading: ['register-form', 'auth-modal'],
      authRegisterDescription: ['register-form', 'auth-modal'],
      paywallHeading: ['paywall-modal', 'inline-paywall', 'sticky-bar', 'content-lock'],
      paywallDescription: ['paywall-modal', 'inline-paywall'],
      paywallCtaText: ['paywall-modal', 'inline-paywall', 'sticky-bar', 'content-lock'],
    };
    for (const field of ALL) {
      const shownOn = ELEMENT_NAMES.filter((element) => resolveCopy(element, field, {}, everything) === `fetched ${field}`);
      expect({ field, shownOn }).toEqual({ field, shownOn: listed[field] });
      expect(ELEMENT_NAMES.filter((element) => COPY_FIELDS[element].includes(field))).toEqual(listed[field]);
    }
  });

  it('takes the attribute, then the paywall rule, then the fetched configuration (not in generic mode)', () => {
    expect(resolveCopy('inline-paywall', 'paywallHeading', { paywallHeading: 'attr' }, everything, { heading: 'rule' })).toBe('attr');
    expect(resolveCopy('inline-paywall', 'paywallHeading', {}, everything, { heading: 'rule' })).toBe('rule');
    expect(resolveCopy('inline-paywall', 'paywallHeading', {}, everything, { heading: null })).toBe('fetched paywallHeading');
    expect(resolveCopy('inline-paywall', 'paywallHeading', {}, { ...everything, brandingMode: 'generic' })).toBeNull();
    expect(resolveCopy('sticky-bar', 'paywallDescription', { paywallDescription: 'attr' }, everything)).toBeNull();
  });

  it("gives every other wall type its own fields, on the elements that show the paywall's, and the rule's copy before them", () => {
    const walls = { softHeading: 'paywallHeading', newsletterDescription: 'paywallDescription', dataCtaText: 'paywallCtaText', registrationHeading: 'paywallHeading' } as const;
    const fetched = { ...everything, softHeading: 'soft', newsletterDescription: 'newsletter', dataCtaText: 'data', registrationHeading: 'registration' };
    for (const [field, like] of Object.entries(walls) as Array<[CopyField, CopyField]>) {
      expect(ELEMENT_NAMES.filter((element) => resolveCopy(element, field, {}, fetched) !== null)).toEqual(ELEMENT_NAMES.filter((element) => COPY_FIELDS[element].includes(like)));
    }
    expect(resolveCopy('inline-paywall', 'newsletterHeading', {}, everything, { heading: 'rule' })).toBe('rule');
    expect(resolveCopy('inline-paywall', 'newsletterHeading', {}, everything)).toBeNull();
    expect(resolveCopy('meter-notice', 'meterNoticeText', { meterNoticeText: 'attr' }, everything)).toBe('attr');
    expect(resolveCopy('meter-notice', 'paywallHeading', {}, everything)).toBeNull();
  });

  it("keeps the contracts' table of wall copy, and every copy field is a branding field with a default in the catalogue", () => {
    expect(WALL_COPY).toEqual(CONTRACT_WALL_COPY);
    const fields = [...new Set(Object.values(COPY_FIELDS).flat())];
    expect(fields.filter((field) => !BRANDING_FIELDS.includes(field))).toEqual([]);
    expect(BRANDING_FIELDS.filter((field) => /Heading|Description|CtaText|Text$/.test(field) && !fields.includes(field as CopyField))).toEqual([]);
    // The meter notice's own text counts down with the plural rules (`meterLeft`); every other field has its default.
    expect(fields.filter((field) => field !== 'meterNoticeText' && typeof MESSAGES['en'][field] !== 'string')).toEqual([]);
  });

  it('names attributes in kebab case', () => {
    expect(attributeOf('paywallCtaText')).toBe('paywall-cta-text');
    expect(attributeOf('brandColorHover')).toBe('brand-color-hover');
  });
});
