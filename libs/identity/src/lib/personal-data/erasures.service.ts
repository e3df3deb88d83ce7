import { Injectable } from '@nestjs/common';
import { Events, InternalEvents, type ErasureConfirmation, type ErasureStep } from '@gatehouse/contracts';
import { forgetOutboxEventsNaming, Outbox } from '@gatehouse/bus';
import { AppError, Clock } from '@gatehouse/platform';
import { isUUID } from 'class-validator';
import { DataSource, type EntityManager } from 'typeorm';
import { EmailTokens } from '../account-email/email-tokens.service';
import { Customer } from '../customers/customer.entity';
import { toCustomerEventData } from '../customers/customer-views';
import { LoginService } from '../login/login.service';
import { RefreshTokens } from '../sessions/refresh-tokens.service';

/** Set on a transaction that started an erasure, so the runner looks as soon as it commits. */
export const ERASURE_ADDED = 'identityErasureAdded';

/** How long a claimed erasure stays with the process running it; past that another may take it. */
const LEASE_MS = 30_000;
/** The wait before a step that was not done (or failed) is asked again: doubling from this, up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 30_000;

export interface Erasure {
  customerId: string;
  publicationId: string;
  email: string;
  deletedEventId: string;
  stepsDone: ErasureStep[];
  attempts: number;
  requestedAt: Date;
}

interface ErasureRow {
  customer_id: string;
  publication_id: string;
  email: string;
  deleted_event_id: string;
  steps_done: ErasureStep[];
  attempts: number;
  requested_at: Date;
}

/**
 * Erasures (GDPR art. 17; docs/customers.md). Starting one is a single transaction: the customer
 * can no longer sign in, `customer.deleted` is written to the outbox, and an `erasures` row records
 * the steps every service still has to do. The row is claimed like a queue entry (SKIP LOCKED, with
 * a lease), so a restart of any service, identity included, only delays it; each step is safe to
 * repeat. Identity's own step comes last and deletes the row with the customer's.
 */
@Injectable()
export class ErasuresService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly login: LoginService,
    private readonly emailTokens: EmailTokens,
    private readonly refreshTokens: RefreshTokens,
  ) {}

  /**
   * 404 for a customer not in the publication, or erased (or being erased) already. With a
   * confirmation, the reader's own request: a wrong password or code refuses it and changes nothing.
   */
  async start(publicationId: string, customerId: string, confirmation?: ErasureConfirmation): Promise<void> {
    if (confirmation) await this.confirm(publicationId, customerId, confirmation);
    await this.dataSource.transaction(async (manager) => {
      const customer = await lockCustomer(manager, publicationId, customerId);
      const now = this.clock.now();
      await manager.update(Customer, { id: customer.id }, { deletedAt: now, updatedAt: now, passwordHash: null });
      await this.refreshTokens.revokeAllOf(manager, customer);
      await this.emailTokens.revokeAllOf(manager, customer.id);
      const deleted = await this.outbox.add(manager, Events.CustomerDeleted, toCustomerEventData(customer), publicationId);
      await this.outbox.add(manager, InternalEvents.CustomerDeleted, { customerId: customer.id }, publicationId);
      await manager.query(
        `INSERT INTO erasures (customer_id, publication_id, email, deleted_event_id, due_at, requested_at) VALUES ($1, $2, $3, $4, $5, $5)`,
        [customer.id, publicationId, customer.email, deleted.id, now],
      );
      if (manager.queryRunner) manager.queryRunner.data[ERASURE_ADDED] = true;
    });
  }

  /** Claims up to `limit` erasures due now, or whose runner stopped mid-way (lease run out). */
  async claimDue(limit: number): Promise<Erasure[]> {
    const now = this.clock.now();
    const rows: [ErasureRow[], number] = await this.dataSource.query(
      `UPDATE erasures SET lease_until = $2, attempts = attempts + 1
       WHERE customer_id IN (
         SELECT customer_id FROM erasures
         WHERE (lease_until IS NULL AND due_at <= $1) OR lease_until < $1
         ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING customer_id, publication_id, email, deleted_event_id, steps_done, attempts, requested_at`,
      [now, new Date(now.getTime() + LEASE_MS), limit],
    );
    return rows[0].map((row) => ({
      customerId: row.customer_id,
      publicationId: row.publication_id,
      email: row.email,
      deletedEventId: row.deleted_event_id,
      stepsDone: row.steps_done,
      attempts: row.attempts,
      requestedAt: row.requested_at,
    }));
  }

  async stepDone(erasure: Erasure, step: ErasureStep): Promise<void> {
    await this.dataSource.query('UPDATE erasures SET steps_done = array_append(steps_done, $2) WHERE customer_id = $1 AND NOT ($2 = ANY(steps_done))', [
      erasure.customerId,
      step,
    ]);
  }

  /** Not finished this time: asked again after a wait that doubles with each attempt. */
  async later(erasure: Erasure, reason: string): Promise<void> {
    const wait = Math.min(FIRST_RETRY_MS * 2 ** Math.min(erasure.attempts - 1, 16), MAX_RETRY_MS);
    await this.dataSource.query('UPDATE erasures SET lease_until = NULL, due_at = $2, last_error = $3 WHERE customer_id = $1', [
      erasure.customerId,
      new Date(this.clock.now().getTime() + wait),
      reason.slice(0, 1000),
    ]);
  }

  async nextDueAt(): Promise<Date | null> {
    const [row] = await this.dataSource.query<{ due: Date | null }[]>('SELECT min(coalesce(lease_until, due_at)) AS due FROM erasures');
    return row?.due ?? null;
  }

  /**
   * Identity's own step, the last: the customer's row (and with it their sessions, refresh tokens
   * and email tokens), the email sent to them, their throttle counters, the events naming them and
   * the erasure's own row. Not done while one of those events still waits to be published.
   */
  async eraseIdentity(erasure: Erasure): Promise<boolean> {
    const { customerId, publicationId, email } = erasure;
    return this.dataSource.transaction(async (manager) => {
      if ((await forgetOutboxEventsNaming(manager, publicationId, [customerId, email])) > 0) return false;
      await manager.query('DELETE FROM email_messages WHERE publication_id = $1 AND (customer_id = $2 OR lower(to_address) = $3)', [publicationId, customerId, email]);
      // Counters are keyed `…<publication id>:…:<email>` (login, account email).
      await manager.query(`DELETE FROM throttle_counters WHERE strpos(key, $1) > 0 AND right(key, length($2) + 1) = ':' || $2`, [publicationId, email]);
      await manager.query('DELETE FROM customers WHERE id = $1 AND publication_id = $2', [customerId, publicationId]);
      await manager.query('DELETE FROM erasures WHERE customer_id = $1', [customerId]);
      return true;
    });
  }

  /** The reader proves it is them: their password, or the sign-in code just emailed to them. */
  private async confirm(publicationId: string, customerId: string, confirmation: ErasureConfirmation): Promise<void> {
    const customer = isUUID(customerId) ? await this.dataSource.manager.findOneBy(Customer, { id: customerId, publicationId }) : null;
    if (!customer) throw new AppError('not_found', 'No such customer.');
    if ('code' in confirmation) return this.emailTokens.consumeCode(customer, confirmation.code);
    // As a login: counted by the login throttle, so a stolen access token cannot guess the password.
    await this.login.authenticate({ publicationId, email: customer.email, password: confirmation.password });
  }
}

/** The customer, locked until the transaction ends; 404 when deleted or not in the publication. */
async function lockCustomer(manager: EntityManager, publicationId: string, customerId: string): Promise<Customer> {
  const customer = isUUID(customerId) ? await manager.findOne(Customer, { where: { id: customerId, publicationId }, lock: { mode: 'pessimistic_write' } }) : null;
  if (!customer) throw new AppError('not_found', 'No such customer.');
  return customer;
}
