import { Injectable } from '@nestjs/common';
import { Events, IdentityRequests, type CustomerProfile, type EmailLanguage, type RequestOf } from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { AppError, Clock, isUuid, parseTimestamp } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { languageOf } from '../email/email-language';
import { normaliseEmail } from './customer-email';
import { toCustomerEventData, toCustomerProfile } from './customer-views';
import { Customer } from './customer.entity';
import { PasswordHasher } from './password-hasher.service';

export interface NewCustomer {
  publicationId: string;
  email: string;
  name: string;
  passwordHash: string | null;
  /** English unless given. */
  language?: EmailLanguage;
}

export function emailTaken(): AppError {
  return new AppError('email_taken', 'This email is already registered.');
}

/** Customers of one publication: every lookup is scoped by publicationId, so another publication's customer does not exist. */
@Injectable()
export class CustomersService {
  private readonly customers: Repository<Customer>;

  constructor(
    dataSource: DataSource,
    private readonly passwords: PasswordHasher,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {
    this.customers = dataSource.getRepository(Customer);
  }

  /**
   * 409 email_taken when the email is already registered in the publication, in any letter case.
   * `andThen` runs in the same transaction (the verification message is queued there).
   */
  async register(
    request: RequestOf<typeof IdentityRequests.Register>,
    andThen: (manager: EntityManager, customer: Customer) => Promise<void> = async () => undefined,
  ): Promise<Customer> {
    const passwordHash = await this.passwords.hash(request.password);
    const { publicationId, email, name } = request;
    return this.customers.manager.transaction(async (manager) => {
      const customer = await this.insert(manager, { publicationId, email, name, passwordHash, language: languageOf(request.locale) });
      await andThen(manager, customer);
      return customer;
    });
  }

  /**
   * Inserts a customer in the caller's transaction, with its `customer.created` (staff, a
   * publisher's server or the reader's own registration alike); without a password hash it
   * cannot log in. 409 email_taken when the email is already registered in the publication, in
   * any letter case.
   */
  async insert(manager: EntityManager, fields: NewCustomer): Promise<Customer> {
    const { publicationId, ...customer } = fields;
    const [inserted] = await this.insertAll(manager, publicationId, [customer]);
    if (!inserted) throw emailTaken();
    return inserted;
  }

  /**
   * Inserts customers of the publication in one statement in the caller's transaction, each with
   * its `customer.created`; one whose email is registered in the publication already is skipped (the
   * unique index on (publication_id, email) decides, so of two simultaneous registrations one
   * inserts nothing, and no row nor its hash reaches the error log). Answers those inserted.
   */
  async insertAll(manager: EntityManager, publicationId: string, fields: Array<Omit<NewCustomer, 'publicationId'>>): Promise<Customer[]> {
    if (fields.length === 0) return [];
    const now = this.clock.now();
    const customers = fields.map((field) =>
      manager.create(Customer, {
        id: randomUUID(),
        publicationId,
        email: normaliseEmail(field.email),
        name: field.name,
        passwordHash: field.passwordHash,
        emailVerifiedAt: null,
        language: field.language ?? 'en',
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      }),
    );
    const inserted = await manager.createQueryBuilder().insert().into(Customer).values(customers).orIgnore().returning('id').execute();
    const ids = new Set((inserted.raw as Array<{ id: string }>).map((row) => row.id));
    const stored = customers.filter((customer) => ids.has(customer.id));
    await this.outbox.addAll(manager, Events.CustomerCreated, stored.map(toCustomerEventData), publicationId);
    return stored;
  }

  findByEmail(publicationId: string, email: string): Promise<Customer | null> {
    return this.customers.findOneBy({ publicationId, email: normaliseEmail(email) });
  }

  findById(publicationId: string, customerId: string): Promise<Customer | null> {
    return this.customers.findOneBy({ publicationId, id: customerId });
  }

  async deletedSince(since: string): Promise<Array<{ customerId: string; deletedAt: string }>> {
    const from = parseTimestamp(since);
    if (!from) throw AppError.invalid('since', 'must be an ISO 8601 time');
    const rows: Array<{ id: string; deleted_at: Date }> = await this.customers.query(
      'SELECT id, deleted_at FROM customers WHERE deleted_at IS NOT NULL AND deleted_at > $1 ORDER BY deleted_at',
      [from],
    );
    return rows.map((row) => ({ customerId: row.id, deletedAt: row.deleted_at.toISOString() }));
  }

  async publicationOf(customerId: string): Promise<string | null> {
    if (!isUuid(customerId)) return null;
    const customer = await this.customers.findOne({ where: { id: customerId }, withDeleted: true, select: { id: true, publicationId: true } });
    return customer?.publicationId ?? null;
  }

  async profile(publicationId: string, customerId: string): Promise<CustomerProfile> {
    const customer = await this.findById(publicationId, customerId);
    if (!customer) throw new AppError('not_found', 'No such customer.');
    return toCustomerProfile(customer);
  }
}

