import type { PriceInterval, PurchaseKind } from '@gatehouse/contracts';

/*
 * What kind of payment a price is, as contracts' `isOneTime` and `isPurchase` say it: browser
 * packages import only types from contracts, so the elements keep these two, and
 * __tests__/price-kinds.spec.ts holds them to the contracts' for every interval.
 */

/** Paid once: lifetime, a pass, a single article. */
export const isOneTime = (interval: PriceInterval): boolean => interval !== 'month' && interval !== 'year';

/** A pass or a single article: bought beside the subscriptions, offered by a paywall rule. */
export const isPurchase = (interval: PriceInterval): interval is PurchaseKind => interval === 'pass' || interval === 'single_article';
