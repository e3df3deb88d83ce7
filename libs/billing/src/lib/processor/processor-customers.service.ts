import { Injectable } from '@nestjs/common';
import type { CustomerProfile } from '@gatehouse/contracts';
import { Clock } from '@gatehouse/platform';
import type Stripe from 'stripe';
import { DataSource, type EntityManager } from 'typeorm';
import { atProcessor } from './processor-clients.service';
import { ProcessorCustomer } from './processor-customer.entity';

/**
 * Customers' accounts at the processor: created on their first checkout, or learned from a
 * subscription or invoice that names the customer (one an operator started at the processor),
 * kept in step by customer events.
 */
@Injectable()
export class ProcessorCustomersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  find(publicationId: string, customerId: string, manager: EntityManager = this.dataSource.manager): Promise<ProcessorCustomer | null> {
    return manager.findOneBy(ProcessorCustomer, { publicationId, customerId });
  }

  findByProcessorId(manager: EntityManager, publicationId: string, processorCustomerId: string): Promise<ProcessorCustomer | null> {
    return manager.findOneBy(ProcessorCustomer, { publicationId, processorCustomerId });
  }

  /**
   * The customer's processor account: the one on record, or a new one carrying the customer's
   * email. Creating it is idempotent per customer, so a retried checkout does not create another.
   */
  async processorIdOf(client: Stripe, publicationId: string, customer: CustomerProfile): Promise<string> {
    const known = await this.find(publicationId, customer.id);
    if (known) return known.processorCustomerId;
    const created = await atProcessor('create the customer', () =>
      client.customers.create(
        { email: customer.email, name: customer.name, metadata: { customerId: customer.id, publicationId } },
        { idempotencyKey: `customer:${publicationId}:${customer.id}` },
      ),
    );
    return created.id;
  }

  /** Records the account (again: concurrent checkouts race here harmlessly) and what the processor says of it. */
  async remember(manager: EntityManager, publicationId: string, customerId: string, account: { id: string; email: string | null; name: string | null }): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(ProcessorCustomer)
      .values({ publicationId, customerId, processorCustomerId: account.id, email: account.email, name: account.name, updatedAt: this.clock.now() })
      .orUpdate(['processor_customer_id', 'email', 'name', 'updated_at'], ['publication_id', 'customer_id'])
      .execute();
  }

  /** Records the account a subscription or invoice shows the customer has, unless one is on record already. */
  async learn(manager: EntityManager, publicationId: string, customerId: string, processorCustomerId: string): Promise<void> {
    if (!processorCustomerId) return;
    await manager
      .createQueryBuilder()
      .insert()
      .into(ProcessorCustomer)
      .values({ publicationId, customerId, processorCustomerId, email: null, name: null, updatedAt: this.clock.now() })
      .orIgnore()
      .execute();
  }
}
