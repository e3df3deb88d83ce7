import { Injectable } from '@nestjs/common';
import { PersonalDataRequests, type EmailLogRecord, type PersonalDataExport, type ReaderIdentifiers, type SessionRecord } from '@gatehouse/contracts';
import { BusClient, outboxEventsNaming } from '@gatehouse/bus';
import { AppError, Clock } from '@gatehouse/platform';
import { isUUID } from 'class-validator';
import { DataSource } from 'typeorm';
import { toCustomerRecord } from '../customer-records/customer-record-view';
import { Customer } from '../customers/customer.entity';

/**
 * Everything the services hold about one customer, as one JSON document (GDPR art. 15 and 20):
 * identity's part read here, the other services' asked for over the bus at once.
 */
@Injectable()
export class PersonalDataExportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly bus: BusClient,
  ) {}

  /** 404 for a customer not in the publication, or erased (or being erased). */
  async export(publicationId: string, customerId: string): Promise<PersonalDataExport> {
    const customer = isUUID(customerId) ? await this.dataSource.manager.findOneBy(Customer, { id: customerId, publicationId }) : null;
    if (!customer) throw new AppError('not_found', 'No such customer.');
    const reader: ReaderIdentifiers = { publicationId, customerId: customer.id, email: customer.email };
    const [sessions, emailLog, events, access, billing, webhooks] = await Promise.all([
      this.sessionsOf(reader),
      this.emailLogOf(reader),
      outboxEventsNaming(this.dataSource.manager, publicationId, [customer.id, customer.email]),
      this.bus.request(PersonalDataRequests.AccessExport, reader),
      this.bus.request(PersonalDataRequests.BillingExport, reader),
      this.bus.request(PersonalDataRequests.WebhooksOutExport, reader),
    ]);
    return {
      format: 'gatehouse.personal-data.v1',
      exportedAt: this.clock.now().toISOString(),
      publicationId,
      customer: { ...toCustomerRecord(customer), language: customer.language, emailVerifiedAt: customer.emailVerifiedAt?.toISOString() ?? null },
      sessions,
      emailLog,
      subscriptions: billing.subscriptions,
      purchases: billing.purchases,
      checkoutSessions: billing.checkoutSessions,
      gifts: billing.gifts,
      organisations: billing.organisations,
      processorCustomer: billing.processorCustomer,
      processorEvents: billing.processorEvents,
      visitorIds: access.visitorIds,
      visits: access.visits,
      meterViews: access.meterViews,
      newsletterSignups: access.passes.filter((pass) => pass.kind === 'newsletter'),
      dataWallSubmissions: access.passes.filter((pass) => pass.kind === 'data'),
      organisationDays: access.organisationDays,
      webhookDeliveries: webhooks.deliveries,
      events: [...events, ...access.events, ...billing.events].sort((a, b) => a.occurredAt.localeCompare(b.occurredAt)),
    };
  }

  private async sessionsOf({ publicationId, customerId }: ReaderIdentifiers): Promise<SessionRecord[]> {
    const rows: Array<{ id: string; created_at: Date; revoked_at: Date | null; last_refreshed_at: Date | null; refresh_tokens: number }> = await this.dataSource.query(
      `SELECT family.id, family.created_at, family.revoked_at, max(token.issued_at) AS last_refreshed_at, count(token.id)::int AS refresh_tokens
       FROM refresh_token_families AS family LEFT JOIN refresh_tokens AS token ON token.family_id = family.id
       WHERE family.publication_id = $1 AND family.customer_id = $2
       GROUP BY family.id ORDER BY family.created_at`,
      [publicationId, customerId],
    );
    return rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at.toISOString(),
      revokedAt: row.revoked_at?.toISOString() ?? null,
      lastRefreshedAt: row.last_refreshed_at?.toISOString() ?? null,
      refreshTokens: row.refresh_tokens,
    }));
  }

  private async emailLogOf({ publicationId, customerId, email }: ReaderIdentifiers): Promise<EmailLogRecord[]> {
    const rows: Array<{ id: string; kind: string; to_address: string; subject: string | null; status: string; created_at: Date; sent_at: Date | null }> =
      await this.dataSource.query(
        `SELECT id, kind, to_address, subject, status, created_at, sent_at FROM email_messages
         WHERE publication_id = $1 AND (customer_id = $2 OR lower(to_address) = $3) ORDER BY created_at, id`,
        [publicationId, customerId, email],
      );
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      toAddress: row.to_address,
      subject: row.subject,
      status: row.status,
      createdAt: row.created_at.toISOString(),
      sentAt: row.sent_at?.toISOString() ?? null,
    }));
  }
}
