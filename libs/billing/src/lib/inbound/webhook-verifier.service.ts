import { Injectable } from '@nestjs/common';
import { AppError, Clock } from '@gatehouse/platform';
import Stripe from 'stripe';

/** Decisions F3: signatures older than this are refused, as replays. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Checks an inbound webhook with the processor SDK's own verification, against the clock of the service. */
@Injectable()
export class WebhookVerifier {
  constructor(private readonly clock: Clock) {}

  verify(rawBody: Buffer, signature: string | null, secret: string | null): Stripe.Event {
    if (!signature || !secret) throw refused();
    let event: Stripe.Event;
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signature, secret, SIGNATURE_TOLERANCE_SECONDS, undefined, this.clock.now().getTime());
    } catch {
      throw refused();
    }
    if (typeof event?.id !== 'string' || typeof event.type !== 'string' || typeof event.data?.object !== 'object' || event.data.object === null) {
      throw AppError.invalid('body', 'is not a processor event');
    }
    return event;
  }
}

function refused(): AppError {
  return new AppError('signature_invalid', 'The Stripe-Signature header is missing, malformed, older than 300 s or does not match the webhook secret.');
}
