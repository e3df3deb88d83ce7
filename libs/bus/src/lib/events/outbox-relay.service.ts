import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EventEnvelope } from '@gatehouse/contracts';
import { Client, type ClientConfig } from 'pg';
import { DataSource, type EntityManager, type EntitySubscriberInterface, type TransactionCommitEvent } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { describeError } from './describe-error';
import { EVENT_TRANSPORT, type EventTransport } from './event-transport';
import { addedNotice, outboxChannelOf } from './outbox.service';

const BATCH_SIZE = 100;
/** The safety net for notifications missed while the listening connection was down. */
const POLL_INTERVAL_MS = 1_000;
const LISTEN_RETRY_MS = 5_000;
/** How long a commit that added a change notice waits for it to be published; the relay goes on trying after. */
const NOTICE_WAIT_MS = 2_000;

interface OutboxRow {
  id: string;
  name: string;
  publication_id: string | null;
  data: unknown;
  occurred_at: Date;
}

/**
 * Publishes the service's outbox rows, oldest first, as soon as their transaction commits (LISTEN),
 * and polls in case a notification was missed. Replicas share the work through SKIP LOCKED. A row
 * is marked published only after the transport accepted it, so a bus outage delays events but
 * never loses them; a row published twice is dropped by the transport or by the consumers.
 *
 * A transaction that added a change notice (`changeNotice` in contracts) returns from its commit
 * only once the relay published it (or NOTICE_WAIT_MS passed), so whatever the writer answers
 * next is answered after every replica's read models were told: no writer invalidates by hand.
 */
@Injectable()
export class OutboxRelay implements EntitySubscriberInterface {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly channel: string;
  private running = false;
  private failing = false;
  private listener: Client | null = null;
  private pollTimer: NodeJS.Timeout | undefined;
  private listenTimer: NodeJS.Timeout | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private queued: Promise<number> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_TRANSPORT) private readonly transport: EventTransport,
  ) {
    this.channel = outboxChannelOf(dataSource);
  }

  /** TypeORM awaits this within `commitTransaction`, so `dataSource.transaction(...)` resolves after it. */
  async afterTransactionCommit({ queryRunner }: TransactionCommitEvent): Promise<void> {
    // A savepoint released inside the transaction is not its commit.
    if (queryRunner.isTransactionActive || !addedNotice(queryRunner)) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), NOTICE_WAIT_MS)));
    const published = this.flush().then(
      () => true,
      () => false,
    );
    if (!(await Promise.race([published, waited]))) this.logger.warn('A change notice was not published within its commit; the relay goes on trying.');
    clearTimeout(timer);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.dataSource.subscribers.push(this);
    this.pollTimer = setInterval(() => this.wake(), POLL_INTERVAL_MS);
    await this.listen();
    this.wake();
  }

  /** Stops listening and polling, then waits for the flush in progress. */
  async stop(): Promise<void> {
    this.running = false;
    // Commits from now on leave their notices to the relay of the next replica that runs.
    const at = this.dataSource.subscribers.indexOf(this);
    if (at >= 0) this.dataSource.subscribers.splice(at, 1);
    clearInterval(this.pollTimer);
    clearTimeout(this.listenTimer);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    await this.tail;
  }

  /** Publishes every unpublished row and resolves with how many this flush published. */
  flush(): Promise<number> {
    // One flush runs at a time. Requests made meanwhile share the single flush queued behind it,
    // which starts after all of them were made and so sees every row they committed.
    if (!this.queued) {
      const queued = this.tail.then(() => {
        this.queued = null;
        return this.publishPending();
      });
      this.queued = queued;
      this.tail = queued.catch(() => undefined);
    }
    return this.queued;
  }

  /** `flush`, waited for at most `ms`: true when every row committed before the call reached the transport in time. */
  async flushWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    try {
      return await Promise.race([this.flush().then(() => true, () => false), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private wake(): void {
    if (!this.running) return;
    this.flush().then(
      () => {
        if (this.failing) this.logger.log('Publishing outbox events again');
        this.failing = false;
      },
      (err: unknown) => {
        if (!this.failing) this.logger.error(`Publishing outbox events failed, retrying: ${describeError(err)}`);
        this.failing = true;
      },
    );
  }

  private async publishPending(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.dataSource.transaction((manager) => this.publishBatch(manager));
      total += published;
      if (published < BATCH_SIZE) return total;
    }
  }

  private async publishBatch(manager: EntityManager): Promise<number> {
    const rows: OutboxRow[] = await manager.query(
      `SELECT id, name, publication_id, data, occurred_at FROM outbox
       WHERE published_at IS NULL ORDER BY occurred_at LIMIT ${BATCH_SIZE} FOR UPDATE SKIP LOCKED`,
    );
    for (const row of rows) await this.transport.publish(toEnvelope(row));
    if (rows.length > 0) {
      await manager.query('UPDATE outbox SET published_at = now() WHERE id = ANY($1::uuid[])', [rows.map((row) => row.id)]);
    }
    return rows.length;
  }

  private async listen(): Promise<void> {
    if (!this.running) return;
    const client = new Client(this.connectionConfig());
    this.listener = client;
    client.on('notification', () => this.wake());
    client.on('error', (err) => this.listenAgainLater(client, err));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (err) {
      this.listenAgainLater(client, err);
    }
  }

  private listenAgainLater(client: Client, err: unknown): void {
    if (this.listener !== client) return;
    this.listener = null;
    client.end().catch(() => undefined);
    this.logger.warn(`Not listening for outbox notifications (polling meanwhile), retrying in ${LISTEN_RETRY_MS} ms: ${describeError(err)}`);
    this.listenTimer = setTimeout(() => void this.listen(), LISTEN_RETRY_MS);
  }

  /** The settings of the data source's own pool (URL, credentials, TLS), for a connection of our own. */
  private connectionConfig(): ClientConfig {
    return (this.dataSource.driver as PostgresDriver).master.options as ClientConfig;
  }
}

function toEnvelope(row: OutboxRow): EventEnvelope {
  return {
    id: row.id,
    name: row.name,
    publicationId: row.publication_id,
    occurredAt: row.occurred_at.toISOString(),
    data: row.data,
  };
}
