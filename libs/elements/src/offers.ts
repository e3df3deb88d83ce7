import { defineOfferCode } from './lib/offer-code';

/*
 * The classic script served at /sdk/v1/offers.js: `<gatehouse-offer-code>`, the offer code field
 * the paywalls' plans show. Kept out of elements.js (its size budget); a page running offers adds
 * this script beside elements.js.
 */
defineOfferCode();
