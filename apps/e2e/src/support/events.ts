import { CreateBusTables1763700000000, JetStreamEventTransport, Outbox, OutboxRelay } from '@gatehouse/bus';
import type { EventEnvelope, EventType } from '@gatehouse/contracts';
import { openMigratedDatabase } from '@gatehouse/db';
import { eventually, testNatsUrl } from '@gatehouse/testing';
import type { DataSource } from 'typeorm';

/**
 * Every event of these names on a namespace's stream, from its beginning, as a durable consumer
 * of the test receives them: what a publisher's webhook consumer or another service would read.
 */
export class EventReader {
  /** Every event received, in the order received. */
  readonly received: EventEnvelope[] = [];

  private constructor(private readonly transport: JetStreamEventTransport) {}

  static async start(namespace: string, names: string[]): Promise<EventReader> {
    const reader = new EventReader(await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace));
    await reader.transport.consume('test-reader', names, async (envelope) => void reader.received.push(envelope));
    return reader;
  }

  /** The events of one name whose data satisfies `matches` (all of them unless given), in the order received. */
  all<T = any>(name: string, matches: (data: T) => boolean = () => true): EventEnvelope<T>[] {
    return this.received.filter((event) => event.name === name && matches(event.data as T)) as EventEnvelope<T>[];
  }

  /** The first event of that name whose data satisfies `matches`, once it has come. */
  waitFor<T = Record<string, unknown>>(name: string, matches: (data: T) => boolean): Promise<EventEnvelope<T>> {
    return eventually(() => this.all<T>(name, matches)[0]);
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/**
 * A service of its own that emits events as the owners do: written to its outbox in a
 * transaction, published by the relay to the namespace's JetStream stream.
 */
export class EventProducer {
  private readonly outbox = new Outbox();

  private constructor(
    private readonly dataSource: DataSource,
    private readonly transport: JetStreamEventTransport,
    private readonly relay: OutboxRelay,
  ) {}

  static async start(databaseUrl: string, namespace: string): Promise<EventProducer> {
    const dataSource = await openMigratedDatabase({ url: databaseUrl, schema: 'event_producer', entities: [], migrations: [CreateBusTables1763700000000] });
    const transport = await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace);
    const relay = new OutboxRelay(dataSource, transport);
    await relay.start();
    return new EventProducer(dataSource, transport, relay);
  }

  emit<T>(event: EventType<T>, data: T, publicationId: string): Promise<EventEnvelope<T>> {
    return this.dataSource.transaction((manager) => this.outbox.add(manager, event, data, publicationId));
  }

  async close(): Promise<void> {
    await this.relay.stop();
    await this.transport.close();
    await this.dataSource.destroy();
  }
}
