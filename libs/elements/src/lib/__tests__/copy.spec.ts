import { BRANDING_DEFAULTS, type BrandingConfiguration } from '@gatehouse/contracts';
import { COPY_FIELDS, ELEMENT_NAMES, attributeOf, resolveCopy, type CopyField } from '../copy';
import { MESSAGES, messagesFor } from '../messages';

const ALL: CopyField[] = ['authHeading', 'authDescription', 'authRegisterHeading', 'authRegisterDescription', 'paywallHeading', 'paywallDescription', 'paywallCtaText'];
const everything = { ...BRANDING_DEFAULTS, brandingMode: 'themed', ...Object.fromEntries(ALL.map((f) => [f, `fetched ${f}`])) } as BrandingConfiguration;

describe('copy fields (spec 8.1)', () => {
  it('lands exactly on the elements the spec lists for each field', () => {
    const listed: Record<CopyField, string[]> = {
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

  it('names attributes in kebab case', () => {
    expect(attributeOf('paywallCtaText')).toBe('paywall-cta-text');
    expect(attributeOf('brandColorHover')).toBe('brand-color-hover');
  });
});

describe('message tables', () => {
  it('ship English and Arabic (right to left) with the same keys, picked by lang', () => {
    expect(Object.keys(MESSAGES).sort()).toEqual(['ar', 'en']);
    const keys = (value: object): string[] => Object.entries(value).flatMap(([k, v]) => (typeof v === 'object' ? keys(v).map((s) => `${k}.${s}`) : [k]));
    expect(keys(MESSAGES['ar']).sort()).toEqual(keys(MESSAGES['en']).sort());
    expect(messagesFor('ar-EG').dir).toBe('rtl');
    expect(messagesFor('en-GB').signIn).toBe('Sign in');
    expect(messagesFor('xx')).toBe(MESSAGES['en']);
    expect(messagesFor(undefined)).toBe(MESSAGES['en']);
  });
});
