import { Global, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { eventType, type EventEnvelope } from '@gatehouse/contracts';
import { DatabaseModule, openMigratedDatabase } from '@gatehouse/db';
import { ClockModule } from '@gatehouse/platform';
import { createTestDatabase, eventually, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import type { DataSource } from 'typeorm';
import { BUS_OPTIONS, InProcessHub, type BusOptions, type BusTransport } from '../../bus-options';
import { CreateBusTables1763700000000 } from '../bus-tables.migration';
import { EventConsumers } from '../event-consumers';
import { EVENT_TRANSPORT, type EventTransport } from '../event-transport';
import { EventsModule } from '../events.module';
import { Outbox } from '../outbox';

jest.setTimeout(15_000);

const NoteAdded = eventType<{ text: string }>('note.added');

/** EventsModule wired as a service uses it: relay started on bootstrap, everything stopped on shutdown. */
describe('EventsModule', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigratedDatabase({ url: database.url, schema: 'notes', entities: [], migrations: [CreateBusTables1763700000000] });
    await dataSource.query('CREATE TABLE effects (event_id uuid NOT NULL, text text NOT NULL)');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  async function startModule(transport: BusTransport, namespace = uniqueNamespace('module')): Promise<TestingModule> {
    const options: BusOptions = { service: 'access', namespace, transport };

    @Global()
    @Module({ providers: [{ provide: BUS_OPTIONS, useValue: options }], exports: [BUS_OPTIONS] })
    class TestBusOptionsModule {}

    const moduleRef = await Test.createTestingModule({
      imports: [ClockModule.forRoot(), DatabaseModule.forDataSource(dataSource), TestBusOptionsModule, EventsModule.forRoot()],
    }).compile();
    return moduleRef.init();
  }

  async function emitAndAwaitEffect(moduleRef: TestingModule): Promise<EventEnvelope<{ text: string }>> {
    await moduleRef.get(EventConsumers).subscribe('access-notes', [NoteAdded], async (envelope, manager) => {
      await manager.query('INSERT INTO effects (event_id, text) VALUES ($1, $2)', [envelope.id, envelope.data.text]);
    });
    const event = await dataSource.transaction((manager) => moduleRef.get(Outbox).add(manager, NoteAdded, { text: 'wired' }, null));
    await eventually(async () => {
      const rows = await dataSource.query('SELECT text FROM effects WHERE event_id = $1', [event.id]);
      return rows.length > 0 ? rows : undefined;
    });
    return event;
  }

  it('relays and consumes over the in-process hub, and leaves the shared hub open on shutdown', async () => {
    const hub = new InProcessHub();
    const moduleRef = await startModule({ kind: 'in-process', hub });
    expect(moduleRef.get<EventTransport>(EVENT_TRANSPORT)).toBe(hub.events);

    await emitAndAwaitEffect(moduleRef);
    await moduleRef.close();

    const received: string[] = [];
    // The module's subscription is gone (a durable takes one subscriber), the hub still delivers.
    await hub.events.consume('access-notes', ['note.added'], async (envelope) => void received.push(envelope.id));
    const id = randomUUID();
    await hub.events.publish({ id, name: 'note.added', publicationId: null, occurredAt: new Date().toISOString(), data: {} });
    await eventually(() => (received.includes(id) ? true : undefined));
    await hub.events.close();
  });

  it('relays and consumes over JetStream, and closes its connection on shutdown', async () => {
    const namespace = uniqueNamespace('module');
    const moduleRef = await startModule({ kind: 'nats', servers: [testNatsUrl()] }, namespace);
    try {
      const event = await emitAndAwaitEffect(moduleRef);
      await moduleRef.close();

      await expect(moduleRef.get<EventTransport>(EVENT_TRANSPORT).publish(event)).rejects.toThrow();
    } finally {
      const nats = await connect({ servers: testNatsUrl() });
      await (await nats.jetstreamManager()).streams.delete(`${namespace}_events`);
      await nats.close();
    }
  });
});
