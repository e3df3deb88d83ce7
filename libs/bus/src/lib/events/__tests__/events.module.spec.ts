import { Global, Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { changeNotice, eventType, type EventEnvelope } from '@gatehouse/contracts';
import { DatabaseModule, openMigratedDatabase } from '@gatehouse/db';
import { ClockModule } from '@gatehouse/platform';
import { createTestDatabase, eventually, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import type { DataSource } from 'typeorm';
import { BUS_OPTIONS, InProcessHub, type BusOptions, type BusTransport } from '../../bus-options';
import { CreateBusTables1763700000000 } from '../bus-tables.migration';
import { EventConsumers } from '../event-consumers.service';
import { EVENT_TRANSPORT, type EventTransport } from '../event-transport';
import { EventsModule } from '../events.module';
import { Outbox } from '../outbox.service';
import { ReadModels } from '../../read-models/read-models.service';
import { on } from '../../read-models/read-model';

jest.setTimeout(15_000);

const NoteAdded = eventType<{ text: string }>('note.added');
const NoteChanged = changeNotice<{ note: string }>('note.changed');

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

  it('returns from the commit of a change notice only once every replica heard it, and refuses one outside a transaction', async () => {
    const namespace = uniqueNamespace('module');
    const writer = await startModule({ kind: 'nats', servers: [testNatsUrl()] }, namespace);
    const replica = await startModule({ kind: 'nats', servers: [testNatsUrl()] }, namespace);
    try {
      const heard: string[] = [];
      const notes = replica.get(ReadModels).define<string, string>({
        name: 'notes',
        load: async (note) => `loaded ${note} ${heard.length}`,
        max: 10,
        freshMs: 60_000,
        changedBy: [on(NoteChanged, (event, model) => (heard.push(event.data.note), model.forget(event.data.note)))],
      });
      await replica.get(ReadModels).caughtUp();
      for (let n = 0; n < 10; n++) {
        const before = await notes.get('n1');
        await dataSource.transaction((manager) => writer.get(Outbox).add(manager, NoteChanged, { note: 'n1' }, null));
        // Once the writer went on, the replica only has to catch up with what NATS already holds.
        await replica.get(ReadModels).caughtUp();
        expect(heard).toHaveLength(n + 1);
        expect(await notes.get('n1')).not.toBe(before);
      }
      await expect(writer.get(Outbox).add(dataSource.manager, NoteChanged, { note: 'n1' }, null)).rejects.toThrow(/in the transaction of the change/);
    } finally {
      await replica.close();
      await writer.close();
      const nats = await connect({ servers: testNatsUrl() });
      await (await nats.jetstreamManager()).streams.delete(`${namespace}_events`);
      await nats.close();
    }
  });
});
