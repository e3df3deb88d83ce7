import { EMAIL_LANGUAGES, type EmailLanguage } from '@gatehouse/contracts';

/**
 * The language of a reader's locale: a tag (`de-AT`) or an Accept-Language list
 * (`fr-CH, de;q=0.8`), the first supported language in order of preference; English otherwise.
 */
export function languageOf(locale: string | undefined): EmailLanguage {
  if (!locale) return 'en';
  const preferred = locale
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { language: tag.trim().split('-')[0].toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (preferred.find((entry) => (EMAIL_LANGUAGES as readonly string[]).includes(entry.language))?.language as EmailLanguage) ?? 'en';
}
