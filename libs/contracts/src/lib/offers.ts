import type { SegmentReader } from './access';
import type { Page, PageRequest } from './pagination';
import { requestPattern } from './patterns';

/*
 * Offers (issue #25 item 1): a discount, an introductory price or a longer trial a reader
 * redeems with a code at checkout. Billing owns them; docs/billing.md describes the behaviour.
 */

/**
 * `percent`: `percentOff` of each discounted invoice; `amount`: `amountOff` minor units of
 * `currency` off each (an introductory price is an amount off for some months); `trial`:
 * `trialDays` free days instead of the price's own.
 */
export const OFFER_KINDS = ['percent', 'amount', 'trial'] as const;
export type OfferKind = (typeof OFFER_KINDS)[number];

/** How long a discount lasts: the first invoice, `durationInMonths` months, or for good. */
export const OFFER_DURATIONS = ['once', 'repeating', 'forever'] as const;
export type OfferDuration = (typeof OFFER_DURATIONS)[number];

/** Letters, digits, `-` and `_`, 3 to 40 of them; stored and matched upper case. */
export const OFFER_CODE_PATTERN = /^[A-Za-z0-9_-]{3,40}$/;

/** What a reader sees of an offer: its terms, never its limits' counters. */
export interface OfferTerms {
  code: string;
  name: string;
  kind: OfferKind;
  /** 1 to 100 for `percent`; null otherwise. */
  percentOff: number | null;
  /** Minor units for `amount`; null otherwise. */
  amountOff: number | null;
  /** Lower-case ISO 4217 for `amount`; null otherwise. */
  currency: string | null;
  /** Null for `trial`. */
  duration: OfferDuration | null;
  /** For `repeating`; null otherwise. */
  durationInMonths: number | null;
  /** For `trial`; null otherwise. */
  trialDays: number | null;
  /** The prices it applies to; empty: every price. */
  priceIds: string[];
  /** Only for customers who never had a subscription of the publication. */
  newCustomersOnly: boolean;
  /** ISO; null: no end. */
  endsAt: string | null;
}

/** An offer as staff see it. */
export interface OfferView extends OfferTerms {
  id: string;
  /** Null: no limit. */
  maxRedemptions: number | null;
  /** Subscriptions started with it. */
  redemptions: number;
  /** ISO; null: from its creation. */
  startsAt: string | null;
  /** Only for readers in this segment of the publication (access's); null: every reader. */
  segmentId: string | null;
  active: boolean;
  createdAt: string;
}

export interface NewOffer {
  code: string;
  name: string;
  kind: OfferKind;
  percentOff?: number;
  amountOff?: number;
  currency?: string;
  duration?: OfferDuration;
  durationInMonths?: number;
  trialDays?: number;
  priceIds?: string[];
  maxRedemptions?: number | null;
  startsAt?: string | null;
  endsAt?: string | null;
  newCustomersOnly?: boolean;
  segmentId?: string | null;
}

/** The offer a subscription was started with, in `subscription.created` data. */
export interface RedeemedOffer {
  offerId: string;
  code: string;
}

export const OfferRequests = {
  ListOffers: requestPattern<{ publicationId: string } & PageRequest, Page<OfferView>>('billing.offers.list'),
  GetOffer: requestPattern<{ publicationId: string; offerId: string }, OfferView>('billing.offers.get'),
  /** 409 conflict when the code is taken in the publication (case-insensitively). */
  CreateOffer: requestPattern<{ publicationId: string; offer: NewOffer }, OfferView>('billing.offers.create'),
  /** Offers are immutable but for `active` and `name`: a reader's terms never change under them. */
  UpdateOffer: requestPattern<{ publicationId: string; offerId: string; changes: { active?: boolean; name?: string } }, OfferView>('billing.offers.update'),
  /**
   * A reader looks a code up (`GET /api/v1/offers?code=`): 404 not_found for an unknown code (or one of another publication, or
   * not started yet), 410 offer_expired / offer_exhausted for one that cannot be redeemed any more, 409 offer_not_applicable
   * when the offer is limited to a segment the reader is not in. `reader` null: staff asking whether the code can be
   * redeemed at all (an experiment's offer), the segment not looked at.
   */
  FindOfferTerms: requestPattern<{ publicationId: string; code: string; reader: SegmentReader | null }, OfferTerms>('billing.offers.terms'),
} as const;
