import { browserEnvironment } from './lib/browser';
import { Gatehouse, type InitOptions } from './lib/gatehouse';

export { ACCESS_TIMEOUT_MS, Gatehouse } from './lib/gatehouse';
export type { AccessResult, CheckoutOptions, Command, EmailLinkOptions, Environment, FailMode, InitOptions, PlanChangeOptions, TrackFields } from './lib/gatehouse';
export type { EmailLink } from './lib/email-links';
export { GatehouseError } from './lib/errors';
export { installAccount } from './lib/account';
export type { AccountDeletionProof, AccountMethods } from './lib/account';
export { installGifts } from './lib/gifts';
export type { GiftMethods, GiftOrder } from './lib/gifts';
export type { GatehouseErrorCode } from './lib/errors';
export type { Session } from './lib/sessions';
export type {
  AccessCheckResult,
  AccessReason,
  CancellationReason,
  SubscriptionView,
  BrandingConfiguration,
  CheckoutConfirmation,
  CheckoutState,
  CustomerProfile,
  OfferedPriceView,
  CustomerView,
  EmailKind,
  MeterState,
  PaywallRule,
  TrackEventType,
  VisitorAttributes,
} from '@gatehouse/contracts';

/** A client on this browser page, initialised: `const gatehouse = createGatehouse({publishableKey: 'pk_…'})`. */
export function createGatehouse(options: InitOptions): Gatehouse {
  const gatehouse = new Gatehouse(browserEnvironment());
  gatehouse.init(options);
  return gatehouse;
}
