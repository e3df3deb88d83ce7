import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import { wholeSecond } from '../shared/time';

/** One inbound event being processed, in the transaction that marks it processed. */
export interface InboundContext {
  manager: EntityManager;
  /** The publication whose webhook secret verified the event; null when PROCESSOR_WEBHOOK_SECRET did. */
  verifiedFor: string | null;
  event: Stripe.Event;
}

/** When the processor says the event happened. */
export function eventTime(event: Stripe.Event): Date {
  return new Date(event.created * 1000);
}

/** What a state just read from the processor is stamped with: this second, never before the event that prompted the read. */
export function readTime(event: Stripe.Event, now: Date): Date {
  return new Date(Math.max(eventTime(event).getTime(), wholeSecond(now).getTime()));
}
