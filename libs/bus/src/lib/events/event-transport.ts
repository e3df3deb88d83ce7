import type { EventEnvelope, EventType } from '@gatehouse/contracts';

/** The EventTransport of the service, provided by EventsModule. */
export const EVENT_TRANSPORT = Symbol('EVENT_TRANSPORT');

export type EventHandler = (envelope: EventEnvelope) => Promise<void>;
export type EventListener<T> = (envelope: EventEnvelope<T>) => Promise<void>;

/**
 * Carries event envelopes between services, at least once. Publishing is idempotent by
 * `envelope.id`; a consumer is durable (identified by its name, it keeps receiving what was
 * published while it was stopped), a delivery is acknowledged only once its handler resolved, and
 * a handler that throws gets the envelope again after a short delay.
 */
export interface EventTransport {
  publish(envelope: EventEnvelope): Promise<void>;
  consume(durable: string, eventNames: string[], handler: EventHandler): Promise<EventSubscription>;
  /**
   * Fan-out for state every replica keeps (read models): each listener gets every event of these
   * types published after it started listening. Nothing durable, no acknowledgement, no redelivery.
   */
  listen<T>(events: EventType<T>[], listener: EventListener<T>): Promise<EventSubscription>;
  /**
   * Resolves once this replica's listeners have had every broadcast that the broker had accepted
   * when it was called (over NATS: on one server, a broadcast acknowledged before a request was
   * sent). A request handler that awaits it answers with what any write answered before that
   * request already made known. Bounded: a broker that does not answer at once is not waited for,
   * and the answer is then false (not known to be caught up), true otherwise.
   */
  caughtUp(): Promise<boolean>;
  close(): Promise<void>;
  /** Whether the transport reaches its broker now (always, in process). */
  isConnected(): boolean;
}

export interface EventSubscription {
  /** Stops receiving; resolves once the delivery in progress, if any, has been handled. */
  stop(): Promise<void>;
}

/** How long a failed delivery waits before its next attempt: growing with each attempt, capped. */
export function redeliveryDelayMs(deliveryCount: number): number {
  return Math.min(1_000 * Math.max(deliveryCount, 1), 30_000);
}
