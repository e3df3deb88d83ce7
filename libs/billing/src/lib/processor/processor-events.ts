import type Stripe from 'stripe';

/**
 * The processor events billing handles: those of spec 6.1, and `invoice.upcoming`, which spec 6.2
 * forwards to publishers, `customer.source.expiring` for the expiring-card reminder and
 * `charge.refunded`, which voids a gift. The webhook endpoint created for a publication subscribes to these.
 */
export const HANDLED_PROCESSOR_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.payment_failed',
  'invoice.payment_succeeded',
  'invoice.upcoming',
  'customer.created',
  'customer.updated',
  'customer.source.expiring',
  'charge.refunded',
] as const satisfies readonly Stripe.WebhookEndpointCreateParams.EnabledEvent[];

export type HandledProcessorEvent = (typeof HANDLED_PROCESSOR_EVENTS)[number];

export function isHandled(type: string): type is HandledProcessorEvent {
  return (HANDLED_PROCESSOR_EVENTS as readonly string[]).includes(type);
}
