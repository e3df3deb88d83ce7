import { Injectable } from '@nestjs/common';
import { BillingInternalEvents } from '@gatehouse/contracts';
import { Outbox, OutboxRelay } from '@gatehouse/bus';
import { Clock, isUuid } from '@gatehouse/platform';
import type Stripe from 'stripe';
import { DataSource, type EntityManager } from 'typeorm';
import { BillingConfig } from '../billing.config';
import { isHandled } from '../processor/processor-events';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { ProcessorEventProcessor } from './processor-event-processor.service';
import { ENVIRONMENT_SCOPE } from './processor-event.entity';
import { WebhookVerifier } from './webhook-verifier.service';

/** How long the webhook waits for the event stream to take the event before handling it itself. */
const QUEUE_WAIT_MS = 1_500;

/**
 * The inbound processor webhook (spec 4.5, 6.1; decisions F3). A verified event is recorded once
 * per event id, with a queue entry in the same transaction; the entry reaches billing's durable
 * consumer through the event stream, which retries on failure. When the stream cannot take it
 * now, the event is processed right here instead (the entry still follows later, and finds the
 * event done). A redelivered event is recorded already: it changes nothing and emits nothing.
 */
@Injectable()
export class ProcessorEventReceiver {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly config: BillingConfig,
    private readonly settings: ProcessorSettingsService,
    private readonly verifier: WebhookVerifier,
    private readonly outbox: Outbox,
    private readonly relay: OutboxRelay,
    private readonly processor: ProcessorEventProcessor,
  ) {}

  async receive(publicationId: string | null, body: Buffer, signature: string | null): Promise<{ received: true }> {
    const event = this.verifier.verify(body, signature, await this.secretFor(publicationId));
    const scope = publicationId ?? ENVIRONMENT_SCOPE;
    const queued = await this.record(scope, publicationId, event);
    if (queued && !(await this.relay.flushWithin(QUEUE_WAIT_MS))) {
      await this.dataSource.transaction((manager) => this.processor.process(manager, scope, event.id));
    }
    return { received: true };
  }

  /** The publication's own secret when the webhook names one, else the environment's. */
  private async secretFor(publicationId: string | null): Promise<string | null> {
    if (publicationId === null) return this.config.PROCESSOR_WEBHOOK_SECRET ?? null;
    return isUuid(publicationId) ? this.settings.webhookSecret(publicationId) : null;
  }

  /** True when the event is new and queued; events billing does not handle are recorded as such and not queued. */
  private record(scope: string, publicationId: string | null, event: Stripe.Event): Promise<boolean> {
    const handled = isHandled(event.type);
    const now = this.clock.now();
    return this.dataSource.transaction(async (manager) => {
      if (await this.aboutErasedCustomer(manager, event)) {
        await manager.query(
          `INSERT INTO processor_events (scope, event_id, type, payload, received_at, processed_at, outcome)
           VALUES ($1, $2, $3, $4, $5, $5, 'ignored: its customer was erased') ON CONFLICT DO NOTHING`,
          [scope, event.id, event.type, JSON.stringify({ id: event.id, type: event.type }), now],
        );
        return false;
      }
      const inserted: unknown[] = await manager.query(
        `INSERT INTO processor_events (scope, event_id, type, payload, received_at, processed_at, outcome)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING event_id`,
        [scope, event.id, event.type, JSON.stringify(event), now, handled ? null : now, handled ? null : 'ignored: not an event billing handles'],
      );
      if (inserted.length === 0 || !handled) return false;
      await this.outbox.add(manager, BillingInternalEvents.ProcessorEventReceived, { scope, eventId: event.id }, publicationId);
      return true;
    });
  }

  /**
   * An event about an account an erasure deleted (the cancellations its deletion causes, the
   * deletion itself): kept as its id and type only, and not acted on (docs/customers.md).
   */
  private async aboutErasedCustomer(manager: EntityManager, event: Stripe.Event): Promise<boolean> {
    const object = ((event.data as Partial<Stripe.Event['data']> | undefined)?.object ?? {}) as { object?: string; id?: string; customer?: unknown };
    const processorCustomerId = object.object === 'customer' ? object.id : typeof object.customer === 'string' ? object.customer : null;
    if (!processorCustomerId) return false;
    const erased: unknown[] = await manager.query('SELECT 1 FROM erased_processor_customers WHERE processor_customer_id = $1', [processorCustomerId]);
    return erased.length > 0;
  }
}
