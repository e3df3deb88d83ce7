import { eventType, type EventEnvelope, type EventType } from '@gatehouse/contracts';
import { openMigratedDatabase } from '@gatehouse/db';
import { createTestDatabase, eventually, testNatsUrl, uniqueNamespace, type TestDatabase } from '@gatehouse/testing';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import type { DataSource, EntityManager } from 'typeorm';
import { CreateBusTables1763700000000 } from '../bus-tables.migration';
import { EventConsumers } from '../event-consumers.service';
import type { EventSubscription } from '../event-transport';
import { JetStreamEventTransport } from '../jetstream.transport';
import { Outbox } from '../outbox.service';
import { OutboxRelay } from '../outbox-relay.service';

jest.setTimeout(15_000);

interface Note {
  text: string;
}
const NoteAdded = eventType<Note>('note.added');
const NoteRemoved = eventType<Note>('note.removed');
const NoteArchived = eventType<Note>('note.archived');

/** Events through the outbox, the relay and JetStream to consumers, with real PostgreSQL and NATS. */
describe('events over JetStream', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let nats: NatsConnection;
  const outbox = new Outbox();

  let namespace: string;
  let transport: JetStreamEventTransport;
  let relay: OutboxRelay;
  let consumers: EventConsumers;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openMigratedDatabase({
      url: database.url,
      schema: 'notes',
      entities: [],
      migrations: [CreateBusTables1763700000000],
    });
    // The handlers' effect: one row per handling, deliberately without a unique key so a second handling would show.
    await dataSource.query('CREATE TABLE effects (consumer text NOT NULL, event_id uuid NOT NULL, name text NOT NULL, text text NOT NULL)');
    nats = await connect({ servers: testNatsUrl() });
  });

  afterAll(async () => {
    await nats?.close();
    await dataSource?.destroy();
    await database?.drop();
  });

  beforeEach(async () => {
    namespace = uniqueNamespace('events');
    transport = await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace);
    relay = new OutboxRelay(dataSource, transport);
    consumers = new EventConsumers(dataSource, transport);
    await relay.start();
  });

  afterEach(async () => {
    await consumers.stopAll();
    await relay.stop();
    await transport.close();
    const jsm = await nats.jetstreamManager();
    await jsm.streams.delete(`${namespace}_events`);
  });

  const emit = <T>(event: EventType<T>, data: T): Promise<EventEnvelope<T>> =>
    dataSource.transaction((manager) => outbox.add(manager, event, data, null));

  const recordEffect = (consumer: string) => async (envelope: EventEnvelope<Note>, manager: EntityManager) => {
    await manager.query('INSERT INTO effects (consumer, event_id, name, text) VALUES ($1, $2, $3, $4)', [
      consumer,
      envelope.id,
      envelope.name,
      envelope.data.text,
    ]);
  };

  const effectsOf = async (consumer: string, eventId: string): Promise<{ name: string; text: string }[]> =>
    dataSource.query('SELECT name, text FROM effects WHERE consumer = $1 AND event_id = $2', [consumer, eventId]);

  const handled = (consumer: string, eventId: string) =>
    eventually(async () => ((await effectsOf(consumer, eventId)).length > 0 ? true : undefined));

  /** A consumer handles in stream order, so once a later event is handled, any duplicate before it would have been too. */
  const settle = async (consumer: string) => handled(consumer, (await emit(NoteAdded, { text: 'marker' })).id);

  it('delivers an event written through the outbox exactly once, with its data', async () => {
    await consumers.subscribe('notes-indexer', [NoteAdded], recordEffect('notes-indexer'));

    const event = await emit(NoteAdded, { text: 'hello' });
    await handled('notes-indexer', event.id);
    await settle('notes-indexer');

    expect(await effectsOf('notes-indexer', event.id)).toEqual([{ name: 'note.added', text: 'hello' }]);
  });

  it('delivers what was published while the consumer was stopped once it is back, exactly once', async () => {
    const first = await consumers.subscribe('notes-indexer', [NoteAdded], recordEffect('notes-indexer'));
    await first.stop();

    const event = await emit(NoteAdded, { text: 'while away' });
    await relay.flush();
    await eventually(async () => {
      const [row] = await dataSource.query('SELECT published_at FROM outbox WHERE id = $1', [event.id]);
      return row.published_at ? true : undefined;
    });
    expect(await effectsOf('notes-indexer', event.id)).toEqual([]);

    await consumers.subscribe('notes-indexer', [NoteAdded], recordEffect('notes-indexer'));
    await handled('notes-indexer', event.id);
    await settle('notes-indexer');
    expect(await effectsOf('notes-indexer', event.id)).toEqual([{ name: 'note.added', text: 'while away' }]);
  });

  it('handles an event once when the relay publishes it again and when its envelope is published twice', async () => {
    await consumers.subscribe('notes-indexer', [NoteAdded], recordEffect('notes-indexer'));
    const event = await emit(NoteAdded, { text: 'once' });
    await handled('notes-indexer', event.id);

    await dataSource.query('UPDATE outbox SET published_at = NULL WHERE id = $1', [event.id]);
    // Published again, by this flush or by the relay's own poll if it came first.
    await relay.flush();
    await eventually(async () => ((await dataSource.query('SELECT published_at FROM outbox WHERE id = $1', [event.id]))[0].published_at ? true : undefined));
    await dataSource.query('UPDATE outbox SET published_at = NULL WHERE id = $1', [event.id]);
    expect(await relay.flushWithin(5_000)).toBe(true);
    await transport.publish(event);
    await transport.publish(event);
    await settle('notes-indexer');

    expect(await effectsOf('notes-indexer', event.id)).toEqual([{ name: 'note.added', text: 'once' }]);
  });

  it('handles an event once when a copy gets past the stream de-duplication (e.g. after its window)', async () => {
    await consumers.subscribe('notes-indexer', [NoteAdded], recordEffect('notes-indexer'));
    const event = await emit(NoteAdded, { text: 'late copy' });
    await handled('notes-indexer', event.id);

    const js = nats.jetstream();
    await js.publish(`${namespace}.events.note.added`, JSONCodec().encode(event), { msgID: `${event.id}-again` });
    await settle('notes-indexer');

    expect(await effectsOf('notes-indexer', event.id)).toEqual([{ name: 'note.added', text: 'late copy' }]);
  });

  it('emits nothing from a transaction that rolls back', async () => {
    await consumers.subscribe('notes-indexer', [NoteAdded], recordEffect('notes-indexer'));
    let rolledBackId = '';
    await expect(
      dataSource.transaction(async (manager) => {
        rolledBackId = (await outbox.add(manager, NoteAdded, { text: 'never' }, null)).id;
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');

    await settle('notes-indexer');
    expect(await effectsOf('notes-indexer', rolledBackId)).toEqual([]);
    expect(await dataSource.query('SELECT id FROM outbox WHERE id = $1', [rolledBackId])).toEqual([]);
  });

  it('retries a handler that fails once, and its effect happens once', async () => {
    const attempts = new Map<string, number>();
    const record = recordEffect('notes-indexer');
    await consumers.subscribe('notes-indexer', [NoteAdded], async (envelope, manager) => {
      await record(envelope, manager);
      const attempt = (attempts.get(envelope.id) ?? 0) + 1;
      attempts.set(envelope.id, attempt);
      if (envelope.data.text === 'flaky' && attempt === 1) throw new Error('downstream hiccup');
    });

    const event = await emit(NoteAdded, { text: 'flaky' });
    await handled('notes-indexer', event.id);
    await settle('notes-indexer');

    expect(attempts.get(event.id)).toBe(2);
    expect(await effectsOf('notes-indexer', event.id)).toEqual([{ name: 'note.added', text: 'flaky' }]);
  });

  it('gives each consumer the events it subscribed to, and only those', async () => {
    await consumers.subscribe<Note>('notes-audit', [NoteAdded, NoteRemoved], recordEffect('notes-audit'));
    await consumers.subscribe('notes-indexer', [NoteAdded], recordEffect('notes-indexer'));

    const archived = await emit(NoteArchived, { text: 'archived' });
    const removed = await emit(NoteRemoved, { text: 'removed' });
    const added = await emit(NoteAdded, { text: 'added' });
    await handled('notes-audit', added.id);
    await handled('notes-indexer', added.id);

    expect(await effectsOf('notes-audit', removed.id)).toEqual([{ name: 'note.removed', text: 'removed' }]);
    expect(await effectsOf('notes-audit', archived.id)).toEqual([]);
    expect(await effectsOf('notes-indexer', removed.id)).toEqual([]);
    expect(await effectsOf('notes-indexer', added.id)).toEqual([{ name: 'note.added', text: 'added' }]);
  });

  it('keeps events it could not publish, and publishes them once the bus is reachable', async () => {
    await consumers.subscribe('notes-indexer', [NoteAdded], recordEffect('notes-indexer'));
    const unreachable = await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace);
    await unreachable.close();
    const failingRelay = new OutboxRelay(dataSource, unreachable);
    await relay.stop();

    const event = await emit(NoteAdded, { text: 'delayed' });
    await expect(failingRelay.flush()).rejects.toThrow();
    // A caller that waits on the relay for a while (the processor webhook, a checkout confirmation) is told no, not failed.
    expect(await failingRelay.flushWithin(1_000)).toBe(false);
    const [row] = await dataSource.query('SELECT published_at FROM outbox WHERE id = $1', [event.id]);
    expect(row.published_at).toBeNull();

    await relay.start();
    await handled('notes-indexer', event.id);
    expect(await effectsOf('notes-indexer', event.id)).toEqual([{ name: 'note.added', text: 'delayed' }]);
  });

  it('keeps relaying when its notification connection drops', async () => {
    await consumers.subscribe('notes-indexer', [NoteAdded], recordEffect('notes-indexer'));
    const dropped = await dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "outbox_notes"'`,
    );
    expect(dropped.length).toBeGreaterThan(0);

    const event = await emit(NoteAdded, { text: 'still flows' });
    await handled('notes-indexer', event.id);
  });

  it('lets a durable consumer take on more event names', async () => {
    const before: EventSubscription = await consumers.subscribe('notes-indexer', [NoteAdded], recordEffect('notes-indexer'));
    await before.stop();

    await consumers.subscribe<Note>('notes-indexer', [NoteAdded, NoteRemoved], recordEffect('notes-indexer'));
    const removed = await emit(NoteRemoved, { text: 'now wanted' });
    await handled('notes-indexer', removed.id);
    expect(await effectsOf('notes-indexer', removed.id)).toEqual([{ name: 'note.removed', text: 'now wanted' }]);
  });
});
