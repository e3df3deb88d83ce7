import { Logger } from '@nestjs/common';
import type { EventEnvelope, EventType } from '@gatehouse/contracts';
import { overTheWire } from '../over-the-wire';
import { describeError } from './describe-error';
import { redeliveryDelayMs, type EventHandler, type EventListener, type EventSubscription, type EventTransport } from './event-transport';

/** As long as JetStream's duplicate window: a re-publish within it is dropped. */
const DEDUPE_WINDOW_MS = 2 * 60_000;

/**
 * The event transport of services running together in one process, with JetStream's semantics
 * kept in memory: de-duplication by id, durable queues, acknowledgement after the handler and
 * delayed redelivery on failure. Nothing survives a restart of the process.
 */
export class InProcessEventTransport implements EventTransport {
  private readonly publishedAt = new Map<string, number>();
  private readonly durables = new Map<string, InProcessDurable>();
  private readonly listeners = new Set<{ eventNames: Set<string>; handler: EventHandler }>();
  private readonly logger = new Logger(InProcessEventTransport.name);

  async publish(envelope: EventEnvelope): Promise<void> {
    const now = Date.now();
    this.forgetPublishedBefore(now - DEDUPE_WINDOW_MS);
    if (this.publishedAt.has(envelope.id)) return;
    this.publishedAt.set(envelope.id, now);
    for (const durable of this.durables.values()) durable.offer(envelope);
    for (const listener of this.listeners) {
      if (!listener.eventNames.has(envelope.name)) continue;
      listener.handler(overTheWire(envelope) as EventEnvelope).catch((err: unknown) => {
        this.logger.warn(`A listener failed on ${envelope.name} ${envelope.id}: ${describeError(err)}`);
      });
    }
  }

  async listen<T>(events: EventType<T>[], handler: EventListener<T>): Promise<EventSubscription> {
    const listener = { eventNames: new Set(events.map((event) => event.name)), handler: handler as EventHandler };
    this.listeners.add(listener);
    return { stop: async () => void this.listeners.delete(listener) };
  }

  /** Listeners are called as the broadcast is published, before its publisher goes on. */
  async caughtUp(): Promise<boolean> {
    // Nothing to wait for.
    return true;
  }

  async consume(durable: string, eventNames: string[], handler: EventHandler): Promise<EventSubscription> {
    let queue = this.durables.get(durable);
    if (!queue) {
      queue = new InProcessDurable(durable);
      this.durables.set(durable, queue);
    }
    return queue.attach(eventNames, handler);
  }

  async close(): Promise<void> {
    await Promise.all([...this.durables.values()].map((durable) => durable.close()));
  }

  isConnected(): boolean {
    return true;
  }

  private forgetPublishedBefore(cutoff: number): void {
    // Map iteration follows insertion order, which is publication order.
    for (const [id, at] of this.publishedAt) {
      if (at >= cutoff) return;
      this.publishedAt.delete(id);
    }
  }
}

interface PendingDelivery {
  envelope: EventEnvelope;
  deliveries: number;
}

/** One durable consumer: its queue outlives its subscriber, and it handles one envelope at a time. */
class InProcessDurable {
  private readonly logger = new Logger(InProcessEventTransport.name);
  private eventNames = new Set<string>();
  private readonly ready: PendingDelivery[] = [];
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private handler: EventHandler | null = null;
  private delivering: Promise<void> | null = null;

  constructor(private readonly name: string) {}

  offer(envelope: EventEnvelope): void {
    if (!this.eventNames.has(envelope.name)) return;
    // A JSON round trip hands each consumer what it would get over NATS, never a shared object.
    this.ready.push({ envelope: overTheWire(envelope) as EventEnvelope, deliveries: 0 });
    this.pump();
  }

  attach(eventNames: string[], handler: EventHandler): EventSubscription {
    if (this.handler) throw new Error(`Durable consumer ${this.name} already has a subscriber`);
    this.eventNames = new Set(eventNames);
    this.handler = handler;
    this.pump();
    return { stop: () => this.detach(handler) };
  }

  async close(): Promise<void> {
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    if (this.handler) await this.detach(this.handler);
  }

  private async detach(handler: EventHandler): Promise<void> {
    if (this.handler === handler) this.handler = null;
    await this.delivering;
  }

  private pump(): void {
    if (this.delivering || !this.handler) return;
    const next = this.ready.shift();
    if (!next) return;
    this.delivering = this.deliver(this.handler, next).finally(() => {
      this.delivering = null;
      this.pump();
    });
  }

  private async deliver(handler: EventHandler, pending: PendingDelivery): Promise<void> {
    pending.deliveries += 1;
    try {
      await handler(pending.envelope);
    } catch (err) {
      const delay = redeliveryDelayMs(pending.deliveries);
      this.logger.warn(`${this.name} failed to handle ${pending.envelope.name} ${pending.envelope.id}, retrying in ${delay} ms: ${describeError(err)}`);
      this.redeliverAfter(pending, delay);
    }
  }

  private redeliverAfter(pending: PendingDelivery, delayMs: number): void {
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.ready.push(pending);
      this.pump();
    }, delayMs);
    timer.unref();
    this.retryTimers.add(timer);
  }
}
