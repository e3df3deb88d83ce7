import { Injectable, Logger } from '@nestjs/common';
import type { BillingPersonalData, ErasureStepResult, ReaderIdentifiers } from '@gatehouse/contracts';
import { forgetOutboxEventsNaming, outboxEventsNaming } from '@gatehouse/bus';
import { Clock } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { atProcessor } from '../processor/processor-clients.service';
import { ProcessorCustomersService } from '../processor/processor-customers.service';
import { ProcessorSettingsService } from '../processor/processor-settings.service';
import { purchaseView } from '../passes/purchase-views';
import { Purchase } from '../passes/purchase.entity';
import { Subscription } from '../subscriptions/subscription.entity';
import { subscriptionView } from '../subscriptions/subscription-views';

/** Processor events whose payload names any needle (the reader's id, email, processor customer id). */
const EVENTS_NAMING = `EXISTS (SELECT 1 FROM unnest($1::text[]) AS needle WHERE strpos(lower(payload::text), lower(needle)) > 0)`;
const REDACTED_PAYLOAD = JSON.stringify({ redacted: 'the customer this event named was erased' });

/**
 * A reader's part of billing. Erasure deletes the reader's account at the processor, what billing
 * knows of it, their unfinished checkouts, their names, addresses and words in gifts, and the
 * processor's payloads that name them; it keeps the subscriptions, completed checkouts and gifts that accounting needs (what was sold, at what price, when),
 * under a new random customer id that nothing links back to the reader (docs/customers.md).
 */
@Injectable()
export class BillingPersonalDataService {
  private readonly logger = new Logger(BillingPersonalDataService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly settings: ProcessorSettingsService,
    private readonly processorCustomers: ProcessorCustomersService,
  ) {}

  async export(reader: ReaderIdentifiers): Promise<BillingPersonalData> {
    const { publicationId, customerId } = reader;
    const manager = this.dataSource.manager;
    const account = await this.processorCustomers.find(publicationId, customerId);
    const needles = needlesOf(reader, account?.processorCustomerId);
    const [subscriptions, purchases, checkouts, gifts, organisations, processorEvents, events] = await Promise.all([
      manager.find(Subscription, { where: { publicationId, customerId }, order: { createdAt: 'DESC' } }),
      manager.find(Purchase, { where: { publicationId, customerId }, order: { createdAt: 'DESC' } }),
      manager.query('SELECT processor_session_id, price_id, created_at, completed_at FROM checkout_sessions WHERE publication_id = $1 AND customer_id = $2 ORDER BY created_at', [
        publicationId,
        customerId,
      ]),
      manager.query(
        `SELECT *, CASE WHEN buyer_customer_id = $2 OR lower(buyer_email) = lower($3) THEN 'buyer' ELSE 'recipient' END AS role FROM gifts
         WHERE publication_id = $1 AND (buyer_customer_id = $2 OR lower(buyer_email) = lower($3) OR redeemed_by = $2 OR lower(recipient_email) = lower($3))
         ORDER BY created_at`,
        [publicationId, customerId, reader.email],
      ),
      manager.query(
        `SELECT o.id, o.name, m.email, m.via, m.joined_at, $2::uuid = ANY(o.manager_ids) AS manager FROM organisations o
           LEFT JOIN organisation_members m ON m.organisation_id = o.id AND m.customer_id = $2
          WHERE o.publication_id = $1 AND (m.customer_id IS NOT NULL OR $2::uuid = ANY(o.manager_ids))
          ORDER BY o.created_at`,
        [publicationId, customerId],
      ) as Promise<Array<{ id: string; name: string; email: string | null; via: 'invitation' | 'domain' | null; joined_at: Date | null; manager: boolean }>>,
      manager.query(`SELECT event_id, type, received_at FROM processor_events WHERE ${EVENTS_NAMING} ORDER BY received_at`, [needles]),
      outboxEventsNaming(manager, publicationId, needles),
    ]);
    return {
      processorCustomer: account && {
        processorCustomerId: account.processorCustomerId,
        email: account.email,
        name: account.name,
        updatedAt: account.updatedAt.toISOString(),
      },
      subscriptions: subscriptions.map((subscription) => ({ ...subscriptionView(subscription) })),
      purchases: purchases.map(purchaseView),
      checkoutSessions: checkouts.map((row: { processor_session_id: string; price_id: string; created_at: Date; completed_at: Date | null }) => ({
        processorSessionId: row.processor_session_id,
        priceId: row.price_id,
        createdAt: row.created_at.toISOString(),
        completedAt: row.completed_at?.toISOString() ?? null,
      })),
      gifts: gifts.map((row: GiftRow) => ({
        giftId: row.id,
        role: row.role,
        status: row.status,
        priceId: row.price_id,
        months: row.months,
        buyerName: row.buyer_name,
        buyerEmail: row.buyer_email,
        recipientName: row.recipient_name,
        recipientEmail: row.recipient_email,
        message: row.message,
        sendAt: row.send_at.toISOString(),
        createdAt: row.created_at.toISOString(),
      })),
      organisations: organisations.map((row) => ({
        organisationId: row.id,
        name: row.name,
        seat: row.email && row.via && row.joined_at ? { email: row.email, via: row.via, joinedAt: row.joined_at.toISOString() } : null,
        manager: row.manager,
      })),
      processorEvents: processorEvents.map((row: { event_id: string; type: string; received_at: Date }) => ({ eventId: row.event_id, type: row.type, receivedAt: row.received_at.toISOString() })),
      events,
    };
  }

  /**
   * Safe to repeat: a processor customer deleted already counts as deleted. Not done while a
   * processor event naming the reader waits to be processed, or one of billing's events naming
   * them waits to be published; a processor that fails throws, and the step is asked again.
   */
  async erase(reader: ReaderIdentifiers): Promise<ErasureStepResult> {
    const { publicationId, customerId } = reader;
    const account = await this.processorCustomers.find(publicationId, customerId);
    if (account) {
      // First, so that what the processor sends about the account as it goes is not kept either.
      await this.dataSource.query('INSERT INTO erased_processor_customers (processor_customer_id, erased_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        account.processorCustomerId,
        this.clock.now(),
      ]);
      await this.deleteAtProcessor(publicationId, account.processorCustomerId);
    }
    const needles = needlesOf(reader, account?.processorCustomerId);
    const waiting = await this.dataSource.transaction(async (manager) => {
      const now = this.clock.now();
      const pseudonym = randomUUID();
      // The processor cancelled the subscriptions with its customer; manual grants end here too.
      await manager.query(
        `UPDATE subscriptions SET customer_id = $3, cancel_at_period_end = false, updated_at = $4,
           status = 'cancelled', cancelled_at = coalesce(cancelled_at, $4)
         WHERE publication_id = $1 AND customer_id = $2`,
        [publicationId, customerId, pseudonym, now],
      );
      await manager.query('UPDATE purchases SET customer_id = $3 WHERE publication_id = $1 AND customer_id = $2', [publicationId, customerId, pseudonym]);
      await manager.query('UPDATE checkout_sessions SET customer_id = $3 WHERE publication_id = $1 AND customer_id = $2 AND completed_at IS NOT NULL', [
        publicationId,
        customerId,
        pseudonym,
      ]);
      await manager.query('DELETE FROM checkout_sessions WHERE publication_id = $1 AND customer_id = $2', [publicationId, customerId]);
      await manager.query('DELETE FROM processor_customers WHERE publication_id = $1 AND customer_id = $2', [publicationId, customerId]);
      await manager.query('DELETE FROM payment_notices WHERE publication_id = $1 AND customer_id = $2', [publicationId, customerId]);
      await manager.query('UPDATE win_back_notices SET customer_id = $3 WHERE publication_id = $1 AND customer_id = $2', [publicationId, customerId, pseudonym]);
      // Gifts the reader gave or was given stay, as sales do, without their names, addresses and words.
      await manager.query(
        `UPDATE gifts SET buyer_customer_id = NULL, buyer_email = '', buyer_name = '', message = NULL
         WHERE publication_id = $1 AND (buyer_customer_id = $2 OR lower(buyer_email) = lower($3))`,
        [publicationId, customerId, reader.email],
      );
      await manager.query(
        `UPDATE gifts SET redeemed_by = CASE WHEN redeemed_by = $2 THEN $4 ELSE redeemed_by END, recipient_email = '', recipient_name = '', message = NULL
         WHERE publication_id = $1 AND (redeemed_by = $2 OR lower(recipient_email) = lower($3))`,
        [publicationId, customerId, reader.email, pseudonym],
      );
      // Their seats (customer.deleted frees them too, with its event) and their part in managing organisations.
      await manager.query('DELETE FROM organisation_members WHERE publication_id = $1 AND customer_id = $2', [publicationId, customerId]);
      await manager.query('UPDATE organisations SET manager_ids = array_remove(manager_ids, $2::uuid) WHERE publication_id = $1 AND $2::uuid = ANY(manager_ids)', [publicationId, customerId]);
      await manager.query(`UPDATE processor_events SET payload = $2 WHERE processed_at IS NOT NULL AND ${EVENTS_NAMING}`, [needles, REDACTED_PAYLOAD]);
      const [{ unprocessed }]: Array<{ unprocessed: number }> = await manager.query(
        `SELECT count(*)::int AS unprocessed FROM processor_events WHERE processed_at IS NULL AND ${EVENTS_NAMING}`,
        [needles],
      );
      return unprocessed + (await forgetOutboxEventsNaming(manager, publicationId, needles));
    });
    return { done: waiting === 0 };
  }

  /** The processor deletes the customer and cancels its subscriptions; one it no longer knows was deleted before. */
  private async deleteAtProcessor(publicationId: string, processorCustomerId: string): Promise<void> {
    const client = await this.settings.client(publicationId);
    if (!client) {
      this.logger.warn(`Publication ${publicationId} has no processor settings any more: its customer ${processorCustomerId} could not be deleted at the processor`);
      return;
    }
    await atProcessor('delete the customer', async () => {
      try {
        await client.customers.del(processorCustomerId);
      } catch (err) {
        if (!(err instanceof Stripe.errors.StripeInvalidRequestError && err.statusCode === 404)) throw err;
      }
    });
  }
}

interface GiftRow {
  id: string;
  role: 'buyer' | 'recipient';
  status: string;
  price_id: string;
  months: number;
  buyer_name: string;
  buyer_email: string;
  recipient_name: string;
  recipient_email: string;
  message: string | null;
  send_at: Date;
  created_at: Date;
}

function needlesOf(reader: ReaderIdentifiers, processorCustomerId: string | undefined): string[] {
  return [reader.customerId, reader.email, ...(processorCustomerId ? [processorCustomerId] : [])];
}
