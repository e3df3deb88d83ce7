import type { OfferTerms, OfferedPriceView } from '@gatehouse/contracts';
import { isOneTime } from './price-kinds';

/* The terms of an offer in English words, for the offer code field (offer-code.ts). */

export type Price = Pick<OfferedPriceView, 'id' | 'currency' | 'unitAmount' | 'interval' | 'trialDays'>;

const money = (minorUnits: number, currency: string): string =>
  new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: minorUnits % 100 === 0 ? 0 : 2 }).format(minorUnits / 100);

const per: Record<string, string> = { month: ' a month', year: ' a year' };
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** What an offer makes of a price, in words: "€3 a month for 3 months, then €6". Null when it is not for that price. */
export function offerTermsText(terms: OfferTerms, price: Price): string | null {
  if (terms.priceIds.length > 0 && !terms.priceIds.includes(price.id)) return null;
  if (terms.kind === 'amount' && terms.currency !== price.currency) return null;
  const full = money(price.unitAmount, price.currency);
  const every = per[price.interval] ?? '';
  let text: string;
  if (terms.kind === 'trial') {
    if (isOneTime(price.interval)) return null;
    text = `${plural(terms.trialDays ?? 0, 'day')} free, then ${full}${every}`;
  } else {
    const off = terms.kind === 'percent' ? Math.round((price.unitAmount * (terms.percentOff ?? 0)) / 100) : (terms.amountOff ?? 0);
    const reduced = money(Math.max(0, price.unitAmount - off), price.currency);
    const first = price.interval === 'year' ? 'the first year' : 'the first month';
    if (isOneTime(price.interval)) text = `${reduced} instead of ${full}`;
    else if (terms.duration === 'forever') text = `${reduced}${every} instead of ${full}`;
    else if (terms.duration === 'repeating' && price.interval === 'month') text = `${reduced} a month for ${plural(terms.durationInMonths ?? 1, 'month')}, then ${full}`;
    else text = `${reduced} for ${first}, then ${full}${every}`;
  }
  return `${terms.name}: ${text}.${terms.newCustomersOnly ? ' For new subscribers.' : ''}`;
}

