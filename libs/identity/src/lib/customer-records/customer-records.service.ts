import { Injectable } from '@nestjs/common';
import {
  CustomerRequests,
  Events,
  IdentityRequests,
  type CustomerProfile,
  type Page,
  type CustomerRecord,
  type RequestOf,
} from '@gatehouse/contracts';
import { Outbox } from '@gatehouse/bus';
import { AppError, Clock } from '@gatehouse/platform';
import { isUUID } from 'class-validator';
import { newestFirst, pageOf } from '@gatehouse/db';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import { EmailTokens } from '../account-email/email-tokens.service';
import { normaliseEmail } from '../customers/customer-email';
import { Customer } from '../customers/customer.entity';
import { CustomersService, emailTaken } from '../customers/customers.service';
import { PasswordHasher } from '../customers/password-hasher.service';
import { RefreshTokens } from '../sessions/refresh-tokens.service';
import { toCustomerEventData, toCustomerProfile } from '../customers/customer-views';
import { EmailVerificationService } from '../account-email/email-verification.service';
import { ErasuresService } from '../personal-data/erasures.service';
import { toCustomerRecord } from './customer-record-view';

const UNIQUE_VIOLATION = '23505';

/**
 * Customers managed by staff and publishers' servers (decisions H3). Each change and its
 * `customer.*` event commit together, through the outbox.
 */
@Injectable()
export class CustomerRecordsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly customers: CustomersService,
    private readonly passwords: PasswordHasher,
    private readonly refreshTokens: RefreshTokens,
    private readonly emailTokens: EmailTokens,
    private readonly verification: EmailVerificationService,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly erasures: ErasuresService,
  ) {}

  /** Newest first; deleted customers are not listed. */
  list(request: RequestOf<typeof CustomerRequests.List>): Promise<Page<CustomerRecord>> {
    const query = this.dataSource
      .getRepository(Customer)
      .createQueryBuilder('customer')
      .where('customer.publication_id = :publicationId', { publicationId: request.publicationId });
    if (request.email !== undefined) query.andWhere('customer.email = :email', { email: normaliseEmail(request.email) });
    return pageOf(query, newestFirst(query.alias), request, toCustomerRecord);
  }

  /** Without a password the customer can be granted access but cannot log in. */
  async create(request: RequestOf<typeof CustomerRequests.Create>): Promise<CustomerRecord> {
    const { publicationId, email, name, password } = request;
    const passwordHash = password === undefined ? null : await this.passwords.hash(password);
    return this.dataSource.transaction(async (manager) => {
      return toCustomerRecord(await this.customers.insert(manager, { publicationId, email, name, passwordHash }));
    });
  }

  /** A new password also ends the customer's sessions: their refresh tokens stop working. */
  async update(request: RequestOf<typeof CustomerRequests.Update>): Promise<CustomerRecord> {
    const { publicationId, customerId, changes } = request;
    const passwordHash = changes.password === undefined ? undefined : await this.passwords.hash(changes.password);
    return this.dataSource.transaction(async (manager) => {
      const customer = await this.lockCustomer(manager, publicationId, customerId);
      await this.applyChanges(manager, customer, { name: changes.name, email: changes.email, passwordHash });
      return toCustomerRecord(customer);
    });
  }

  /**
   * The signed-in reader's own name or email. A new address is unverified and gets the
   * verification message (in the same transaction, through the durable email queue).
   */
  async updateProfile(request: RequestOf<typeof IdentityRequests.UpdateProfile>): Promise<CustomerProfile> {
    const { publicationId, customerId, name, email, returnUrl } = request;
    return this.dataSource.transaction(async (manager) => {
      const customer = await this.lockCustomer(manager, publicationId, customerId);
      const emailChanged = await this.applyChanges(manager, customer, { name, email });
      if (emailChanged) await this.verification.send(manager, customer, returnUrl ?? null);
      return toCustomerProfile(customer);
    });
  }

  /** Writes the changes and emits `customer.updated` (each success does, decisions H3); says whether the email changed. */
  private async applyChanges(manager: EntityManager, customer: Customer, changes: { name?: string; email?: string; passwordHash?: string }): Promise<boolean> {
    const email = changes.email === undefined ? customer.email : normaliseEmail(changes.email);
    const emailChanged = email !== customer.email;
    if (emailChanged) {
      await this.changeEmail(manager, customer, email);
      customer.email = email;
      customer.emailVerifiedAt = null;
      // A reset or sign-in link sent to the old address must not open the account any more.
      await this.emailTokens.revokeAllOf(manager, customer.id);
    }
    if (changes.name !== undefined) customer.name = changes.name;
    if (changes.passwordHash !== undefined) customer.passwordHash = changes.passwordHash;
    customer.updatedAt = this.clock.now();
    await manager.update(Customer, { id: customer.id }, { name: customer.name, passwordHash: customer.passwordHash, updatedAt: customer.updatedAt });
    if (changes.passwordHash !== undefined) await this.refreshTokens.revokeAllOf(manager, customer);
    await this.outbox.add(manager, Events.CustomerUpdated, toCustomerEventData(customer), customer.publicationId);
    return emailChanged;
  }

  /** The customer's erasure (docs/customers.md): they cannot sign in from now on; every service's step follows. */
  async delete(request: RequestOf<typeof CustomerRequests.Delete>): Promise<{ deleted: true }> {
    await this.erasures.start(request.publicationId, request.customerId);
    return { deleted: true as const };
  }

  /** The customer, locked until the transaction ends; 404 when deleted or not in the publication. */
  private async lockCustomer(manager: EntityManager, publicationId: string, customerId: string): Promise<Customer> {
    const customer = isUUID(customerId)
      ? await manager.findOne(Customer, { where: { id: customerId, publicationId }, lock: { mode: 'pessimistic_write' } })
      : null;
    if (!customer) throw new AppError('not_found', 'No such customer.');
    return customer;
  }

  /**
   * A statement of its own, checked first, so that a taken email rarely reaches the unique index:
   * a failed statement is logged, and this one carries no password hash.
   */
  private async changeEmail(manager: EntityManager, customer: Customer, email: string): Promise<void> {
    const changed = await manager
      .createQueryBuilder()
      .update(Customer)
      .set({ email, emailVerifiedAt: null })
      .where('id = :id', { id: customer.id })
      .andWhere('NOT EXISTS (SELECT 1 FROM customers AS other WHERE other.publication_id = :publicationId AND other.email = :email AND other.deleted_at IS NULL)', {
        publicationId: customer.publicationId,
        email,
      })
      .execute()
      .catch(rethrowEmailTaken);
    if (changed.affected !== 1) throw emailTaken();
  }
}

/** Two changes racing for one email: the unique index decides. */
function rethrowEmailTaken(err: unknown): never {
  if (err instanceof QueryFailedError && (err.driverError as { code?: string }).code === UNIQUE_VIOLATION) throw emailTaken();
  throw err;
}
