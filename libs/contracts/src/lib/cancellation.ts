import type { OfferedPriceView, SubscriptionView } from './billing';
import type { CancellationReason } from './events';
import type { OfferTerms } from './offers';
import { requestPattern } from './patterns';

/*
 * Cancellation that tries to save, and win-back (issue #27, items 2 and 5; docs/billing.md#cancellation-that-tries-to-save).
 * The reasons are the processor's own `cancellation_details.feedback` values; staff choose which a
 * reader is shown, in which order, under which label, and the save offer each one brings.
 */

/** What a save offer gives: a discount (an offer, applied to the subscription at the processor), a pause of 1-3 months, or a cheaper plan. */
export const SAVE_KINDS = ['discount', 'pause', 'plan_change'] as const;
export type SaveKind = (typeof SAVE_KINDS)[number];

/** A save offer as staff configure it for a reason. */
export type SaveOfferSetting = { kind: 'discount'; offerId: string } | { kind: 'pause'; months: number } | { kind: 'plan_change'; priceId: string };

export interface CancellationReasonSetting {
  reason: CancellationReason;
  /** What readers read; null: the account element's own words in the reader's language. At most 120 characters. */
  label: string | null;
  /** Whether readers are offered it. */
  enabled: boolean;
  save: SaveOfferSetting | null;
}

/** Every reason, in the order readers see the enabled ones. */
export interface CancellationReasonsView {
  reasons: CancellationReasonSetting[];
}

/** A save offer as a reader is shown it: for their subscription, or none when it does not apply to it. */
export type SaveOfferView = { kind: 'discount'; offer: OfferTerms } | { kind: 'pause'; months: number } | { kind: 'plan_change'; price: OfferedPriceView };

export interface CancellationOptions {
  reasons: Array<{ reason: CancellationReason; label: string | null; save: SaveOfferView | null }>;
}

export interface SaveAcceptance {
  kind: SaveKind;
  subscription: SubscriptionView;
}

/** How many cancellations gave each reason, and how many of its readers a save offer kept, within a range. */
export interface CancellationStats {
  reasons: Array<{ reason: CancellationReason; cancellations: number; saved: number }>;
  saves: Array<{ kind: SaveKind; offered: number; accepted: number }>;
  /** Win-back email sent, and subscriptions started with the offer it carried by those it was sent to. */
  winBack: { sent: number; conversions: number };
}

export const WIN_BACK_DAYS_MAX = 365;

/** Off by default; `days` after a cancellation took effect, the former subscriber is emailed the offer. */
export interface WinBackSettingsView {
  enabled: boolean;
  days: number;
  offerId: string | null;
}

export type WinBackSettingsChange = Partial<WinBackSettingsView>;

export const CancellationRequests = {
  GetReasons: requestPattern<{ publicationId: string }, CancellationReasonsView>('billing.cancellation-reasons.get'),
  /** Replaces the list: every reason once, in the readers' order; an offer or price must be the publication's (404 otherwise). */
  SaveReasons: requestPattern<{ publicationId: string; reasons: CancellationReasonSetting[] }, CancellationReasonsView>('billing.cancellation-reasons.save'),
  /** The enabled reasons and their save offers as they apply to the subscription; `customerId`: the reader's own only. */
  Options: requestPattern<{ publicationId: string; subscriptionId: string; customerId?: string }, CancellationOptions>('billing.cancellation.options'),
  /** Applies the reason's save offer at the processor instead of cancelling; once per subscription (409 after). */
  AcceptSave: requestPattern<{ publicationId: string; subscriptionId: string; reason: CancellationReason; customerId?: string }, SaveAcceptance>(
    'billing.cancellation.accept-save',
  ),
  GetWinBack: requestPattern<{ publicationId: string }, WinBackSettingsView>('billing.win-back.get'),
  SaveWinBack: requestPattern<{ publicationId: string } & WinBackSettingsChange, WinBackSettingsView>('billing.win-back.save'),
} as const;
