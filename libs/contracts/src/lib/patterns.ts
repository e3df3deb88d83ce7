/**
 * A request pattern names a bus request and binds it to its request and reply types, so that
 * `bus.request(AccessCheck, payload)` is type-checked end to end and the pattern string is written
 * exactly once, here in contracts.
 */
export interface RequestPattern<Req, Res> {
  readonly pattern: string;
  /** Type-only: never set at run time. A function type makes Req contravariant and Res covariant. */
  readonly __types?: (request: Req) => Res;
}

export function requestPattern<Req, Res>(pattern: string): RequestPattern<Req, Res> {
  return Object.freeze({ pattern });
}

export type RequestOf<P> = P extends RequestPattern<infer Req, any> ? Req : never;
export type ReplyOf<P> = P extends RequestPattern<any, infer Res> ? Res : never;

/** A domain event: its dotted name bound to the type of its `data`. */
export interface EventType<T> {
  readonly name: string;
  /**
   * A change notice: replicas' read models listen to it, so the outbox publishes it as the write's
   * transaction commits, before the write is answered (see `changeNotice`).
   */
  readonly notice?: true;
  /** Type-only: invariant in T, so an event's data type cannot be widened or narrowed by accident. */
  readonly __data?: (data: T) => T;
}

export function eventType<T>(name: string): EventType<T> {
  return Object.freeze({ name });
}

/**
 * An internal event telling every replica that state it keeps in memory changed. A writer adds it
 * to the outbox in the transaction of the change like any event; the commit then publishes it
 * before the write returns, so a request sent after the write was answered finds it heard.
 */
export function changeNotice<T>(name: string): EventType<T> {
  return Object.freeze({ name, notice: true as const });
}

export type DataOf<E> = E extends EventType<infer T> ? T : never;

/** What travels on the event stream: one envelope per event, `id` doubling as the de-duplication id. */
export interface EventEnvelope<T = unknown> {
  id: string;
  name: string;
  /** The publication (tenant) the event belongs to; null for system-wide events. */
  publicationId: string | null;
  /** ISO 8601 UTC. */
  occurredAt: string;
  data: T;
}
