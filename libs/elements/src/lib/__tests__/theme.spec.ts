import { BRANDING_DEFAULTS, type BrandingConfiguration } from '@gatehouse/contracts';
import { darken, resolveTheme, themeDeclarations } from '../theme';

const themed = (changes: Partial<BrandingConfiguration>): BrandingConfiguration => ({ ...BRANDING_DEFAULTS, brandingMode: 'themed', ...changes });

describe('theme precedence (spec 8.1)', () => {
  it('falls back to the CSS custom property, then the built-in default, when neither attribute nor configuration sets a value', () => {
    expect(resolveTheme({}, null)).toEqual({
      primary: 'var(--gatehouse-primary, #6C5CE7)',
      primaryHover: 'var(--gatehouse-primary-hover, #5A4BD1)',
      radius: 'var(--gatehouse-radius, 8px)',
      font: 'var(--gatehouse-font, system-ui)',
    });
  });

  it('puts the fetched configuration above the CSS properties and the attribute above both', () => {
    const fetched = themed({ brandColor: '#112233', brandColorHover: '#010203', borderRadius: '4', fontFamily: 'Georgia, serif' });
    expect(resolveTheme({}, fetched)).toEqual({ primary: '#112233', primaryHover: '#010203', radius: '4px', font: 'Georgia, serif' });
    expect(resolveTheme({ brandColor: '#ff0000', brandColorHover: '#aa0000', borderRadius: '0', fontFamily: 'monospace' }, fetched)).toEqual({
      primary: '#ff0000',
      primaryHover: '#aa0000',
      radius: '0px',
      font: 'monospace',
    });
  });

  it('ignores the fetched configuration in generic mode', () => {
    const generic = { ...themed({ brandColor: '#112233', borderRadius: '4' }), brandingMode: 'generic' as const };
    expect(resolveTheme({}, generic).primary).toBe('var(--gatehouse-primary, #6C5CE7)');
    expect(resolveTheme({ borderRadius: '2' }, generic).radius).toBe('2px');
  });

  it('derives the hover colour about 10 % darker from the brand colour of the same layer', () => {
    expect(resolveTheme({ brandColor: '#6C5CE7' }, null).primaryHover).toBe(darken('#6C5CE7'));
    expect(resolveTheme({}, themed({ brandColor: '#3366cc' })).primaryHover).toBe(darken('#3366cc'));
    expect(darken('#6C5CE7')).toBe('#4430e0');
    expect(darken('#fff')).toBe('#e6e6e6');
    expect(darken('not a colour')).toBeNull();
  });

  it('writes the internal custom properties', () => {
    expect(themeDeclarations(resolveTheme({ brandColor: '#000000' }, null))).toContain('--gh-primary: #000000; --gh-primary-hover: #000000; --gh-radius: var(--gatehouse-radius, 8px)');
  });
});
