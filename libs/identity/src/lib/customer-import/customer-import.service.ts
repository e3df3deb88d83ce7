import { Injectable } from '@nestjs/common';
import { ImportRequests, type CustomerImportResult, type ReplyOf, type RequestOf } from '@gatehouse/contracts';
import { DataSource } from 'typeorm';
import { EmailVerificationService } from '../account-email/email-verification.service';
import { normaliseEmail } from '../customers/customer-email';
import { Customer } from '../customers/customer.entity';
import { CustomersService } from '../customers/customers.service';

/**
 * Identity's part of an import (docs/imports.md): a batch's customers by email, those not in the
 * publication yet created in one statement. Imported readers have no password (they sign in with
 * a code, or set one by a reset) and get no email unless staff asked for the verification message.
 */
@Injectable()
export class CustomerImportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly customers: CustomersService,
    private readonly verification: EmailVerificationService,
  ) {}

  async import(request: RequestOf<typeof ImportRequests.ImportCustomers>): Promise<ReplyOf<typeof ImportRequests.ImportCustomers>> {
    const { publicationId } = request;
    const wanted = new Map(request.customers.map((customer) => [normaliseEmail(customer.email), customer.name]));
    return this.dataSource.transaction(async (manager) => {
      const known = async (emails: string[]) =>
        new Map(
          (await manager.query<Array<{ id: string; email: string }>>(
            'SELECT id, email FROM customers WHERE publication_id = $1 AND email = ANY($2) AND deleted_at IS NULL',
            [publicationId, emails],
          )).map((row) => [row.email, row.id]),
        );
      const existing = await known([...wanted.keys()]);
      const fresh = [...wanted].filter(([email]) => !existing.has(email));
      const results: CustomerImportResult[] = [...existing].map(([email, customerId]) => ({ email, customerId, created: false }));
      if (request.dryRun) return { customers: [...results, ...fresh.map(([email]) => ({ email, customerId: null, created: true }))] };
      const inserted = await this.customers.insertAll(manager, publicationId, fresh.map(([email, name]) => ({ email, name, passwordHash: null })));
      if (request.notifyReaders) for (const customer of inserted) await this.verification.send(manager, customer, null);
      results.push(...inserted.map((customer) => ({ email: customer.email, customerId: customer.id, created: true })));
      // Registered meanwhile by the readers themselves: theirs now, linked as existing.
      const raced = fresh.filter(([email]) => !inserted.some((customer) => customer.email === email)).map(([email]) => email);
      if (raced.length > 0) for (const [email, customerId] of await known(raced)) results.push({ email, customerId, created: false });
      return { customers: results };
    });
  }

  /** Live customers by email, from just after `after`. */
  async exportPage(request: RequestOf<typeof ImportRequests.ExportCustomers>): Promise<ReplyOf<typeof ImportRequests.ExportCustomers>> {
    const query = this.dataSource
      .getRepository(Customer)
      .createQueryBuilder('customer')
      .select(['customer.id', 'customer.email', 'customer.name'])
      .where('customer.publication_id = :publicationId', { publicationId: request.publicationId })
      .orderBy('customer.email')
      .limit(request.limit);
    if (request.after !== null) query.andWhere('customer.email > :after', { after: request.after });
    const customers = await query.getMany();
    return { customers: customers.map(({ id, email, name }) => ({ id, email, name })) };
  }
}
