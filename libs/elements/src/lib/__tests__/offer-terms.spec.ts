import type { OfferTerms } from '@gatehouse/contracts';
import { offerTermsText, type Price } from '../offer-terms';

const monthly: Price = { id: 'p-month', currency: 'eur', unitAmount: 600, interval: 'month', trialDays: 0 };
const yearly: Price = { id: 'p-year', currency: 'eur', unitAmount: 6000, interval: 'year', trialDays: 0 };
const lifetime: Price = { id: 'p-life', currency: 'eur', unitAmount: 9900, interval: 'lifetime', trialDays: 0 };
const terms = (changes: Partial<OfferTerms>): OfferTerms => ({
  code: 'SPRING',
  name: 'Spring',
  kind: 'amount',
  percentOff: null,
  amountOff: 300,
  currency: 'eur',
  duration: 'repeating',
  durationInMonths: 3,
  trialDays: null,
  priceIds: [],
  newCustomersOnly: false,
  endsAt: null,
  ...changes,
});

describe('offer terms in words', () => {
  it('says what an introductory price, a percentage, a lasting discount and a trial make of the plan', () => {
    expect(offerTermsText(terms({}), monthly)).toBe('Spring: €3 a month for 3 months, then €6.');
    expect(offerTermsText(terms({ kind: 'percent', percentOff: 25, amountOff: null, currency: null, duration: 'once', durationInMonths: null }), yearly)).toBe(
      'Spring: €45 for the first year, then €60 a year.',
    );
    expect(offerTermsText(terms({ amountOff: 150, duration: 'forever', durationInMonths: null, newCustomersOnly: true }), monthly)).toBe(
      'Spring: €4.50 a month instead of €6. For new subscribers.',
    );
    expect(offerTermsText(terms({ durationInMonths: 1 }), monthly)).toBe('Spring: €3 a month for 1 month, then €6.');
    expect(offerTermsText(terms({ kind: 'trial', amountOff: null, currency: null, duration: null, durationInMonths: null, trialDays: 30 }), monthly)).toBe('Spring: 30 days free, then €6 a month.');
    expect(offerTermsText(terms({ duration: 'once', durationInMonths: null }), lifetime)).toBe('Spring: €96 instead of €99.');
  });

  it('has nothing to say for a plan the offer is not for: another price, another currency, a trial on a one-time price', () => {
    expect(offerTermsText(terms({ priceIds: ['p-year'] }), monthly)).toBeNull();
    expect(offerTermsText(terms({ currency: 'usd' }), monthly)).toBeNull();
    expect(offerTermsText(terms({ kind: 'trial', trialDays: 14 }), lifetime)).toBeNull();
  });
});
