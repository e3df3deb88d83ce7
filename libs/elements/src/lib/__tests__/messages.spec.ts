import { ELEMENT_LOCALES } from '@gatehouse/contracts';
import { ACCOUNT_MESSAGES_EN } from '../account-messages';
import { MESSAGES, fill, messagesFor, plural, registerMessages, type Messages, type Plural } from '../messages';
import ar from '../../locales/ar';
import de from '../../locales/de';
import es from '../../locales/es';
import fr from '../../locales/fr';

const en = MESSAGES['en'];
const TABLES: Record<string, Messages> = { en, ar, de, es, fr };
const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'];
/** A plural message: an object of plural categories only (the account's `reasons` has an `other` reason, and is not one). */
const isPlural = (value: unknown): value is Plural =>
  typeof value === 'object' && value !== null && 'other' in value && Object.keys(value).every((key) => PLURAL_CATEGORIES.includes(key));

/** Every text of a table by its path ("reason.hard"); a plural message is one entry. */
function texts(table: object, prefix = ''): Map<string, string | Plural> {
  const found = new Map<string, string | Plural>();
  for (const [key, value] of Object.entries(table)) {
    const path = `${prefix}${key}`;
    if (typeof value === 'string' || isPlural(value)) found.set(path, value);
    else for (const [inner, text] of texts(value as object, `${path}.`)) found.set(inner, text);
  }
  return found;
}
const placeholders = (text: string | Plural): string[] => [...new Set((typeof text === 'string' ? text : text.other).match(/\{\w+\}/g) ?? [])].sort();

describe('the message catalogue', () => {
  // The other languages' tables carry the account elements' words too; English has them in account.js.
  const english = texts({ ...en, account: ACCOUNT_MESSAGES_EN });

  it('ships English and, as tables fetched on demand, the locales the gateway serves', () => {
    expect(Object.keys(TABLES).sort()).toEqual(['en', ...ELEMENT_LOCALES].sort());
  });

  it.each(ELEMENT_LOCALES)('has every message in %s, none empty or left in English by mistake, with the same placeholders', (lang) => {
    const table = texts(TABLES[lang]);
    expect([...table.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of table) {
      const forms = typeof text === 'string' ? [text] : Object.values(text);
      expect({ key, empty: forms.some((form) => !form?.trim()) }).toEqual({ key, empty: false });
      expect({ key, placeholders: placeholders(text) }).toEqual({ key, placeholders: placeholders(english.get(key)!) });
    }
    // Words shared with English are few (names, "Name", a dir): most of the table is translated.
    const same = [...table].filter(([key, text]) => key !== 'dir' && JSON.stringify(text) === JSON.stringify(english.get(key)));
    expect(same.length).toBeLessThan(3);
  });

  it.each(['en', ...ELEMENT_LOCALES])('has each plural message in every form the plural rules of %s pick', (lang) => {
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const [key, text] of texts(TABLES[lang])) {
      if (typeof text === 'string') continue;
      expect({ key, missing: categories.filter((category) => !(category in text)) }).toEqual({ key, missing: [] });
    }
  });

  it('writes Arabic right to left and the others left to right', () => {
    expect(Object.fromEntries(Object.entries(TABLES).map(([lang, table]) => [lang, table.dir]))).toEqual({ en: 'ltr', ar: 'rtl', de: 'ltr', es: 'ltr', fr: 'ltr' });
  });

  it('picks a table by the primary subtag once it is at hand, English otherwise', () => {
    expect(messagesFor('de-AT')).toBe(en);
    registerMessages('de', de);
    expect(messagesFor('de-AT').signIn).toBe('Anmelden');
    expect(messagesFor('xx')).toBe(en);
    expect(messagesFor(undefined)).toBe(en);
  });

  it('fills placeholders and picks plural forms by the locale', () => {
    expect(plural(en.meterLeft, 1, 'en', { period: 'this month' })).toBe('1 free article left this month');
    expect(plural(en.meterLeft, 3, 'en', { period: 'this month' })).toBe('3 free articles left this month');
    expect(plural(de.trial, 14, 'de', { price: '6,00 € im Monat' })).toBe('14 Tage kostenlos, danach 6,00 € im Monat');
    expect(plural(ar.meterLeft, 2, 'ar', { period: ar.meterPeriod.month })).toBe('تبقّى لك مقالان مجانيان هذا الشهر');
    expect(fill(fr.required, { field: 'E-mail' })).toBe('Le champ « E-mail » est obligatoire.');
    expect(plural(en.trial, 2, 'not a tag!', { price: 'x' })).toBe('2 days free, then x');
  });
});
