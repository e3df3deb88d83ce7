import { Injectable } from '@nestjs/common';
import { EXPORT_PAGE_SIZE, ImportRequests, type ReplyOf, type TransferRow } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';

/**
 * The export, a page at a time (the gateway streams the pages as CSV): customers by email from
 * identity, their live subscriptions and processor accounts from billing, in the import's columns.
 */
@Injectable()
export class SubscriberExportService {
  constructor(private readonly bus: BusClient) {}

  async page(publicationId: string, cursor: string | undefined): Promise<ReplyOf<typeof ImportRequests.ExportPage>> {
    const { customers } = await this.bus.request(ImportRequests.ExportCustomers, { publicationId, after: cursor === undefined ? null : emailOf(cursor), limit: EXPORT_PAGE_SIZE });
    const { subscriptions } = await this.bus.request(ImportRequests.ExportSubscriptions, { publicationId, customerIds: customers.map((customer) => customer.id) });
    const rows: TransferRow[] = customers.flatMap((customer) =>
      subscriptions
        .filter((subscription) => subscription.customerId === customer.id)
        .map(({ customerId: _customerId, ...subscription }) => ({ email: customer.email, name: customer.name, ...subscription })),
    );
    const last = customers[customers.length - 1];
    return { rows, nextCursor: customers.length === EXPORT_PAGE_SIZE ? Buffer.from(last.email).toString('base64url') : null };
  }
}

function emailOf(cursor: string): string {
  const email = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!email.includes('@') || Buffer.from(email).toString('base64url') !== cursor) throw AppError.invalid('cursor', 'is not a cursor of this export');
  return email;
}
