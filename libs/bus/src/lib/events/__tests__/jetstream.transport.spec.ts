import type { EventEnvelope } from '@gatehouse/contracts';
import { eventually, testNatsUrl, uniqueNamespace } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { JetStreamEventTransport } from '../jetstream.transport';

jest.setTimeout(15_000);

const envelope = (data: unknown = {}): EventEnvelope => ({
  id: randomUUID(),
  name: 'note.added',
  publicationId: null,
  occurredAt: new Date().toISOString(),
  data,
});

/** Transport behaviour a service relies on beyond one subscriber, against the real NATS server. */
describe('JetStreamEventTransport', () => {
  let nats: NatsConnection;
  let namespace: string;
  let transports: JetStreamEventTransport[];

  const replica = async () => {
    const transport = await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace);
    transports.push(transport);
    return transport;
  };

  beforeAll(async () => {
    nats = await connect({ servers: testNatsUrl() });
  });
  afterAll(() => nats?.close());

  beforeEach(() => {
    namespace = uniqueNamespace('jetstream');
    transports = [];
  });
  afterEach(async () => {
    await Promise.all(transports.map((transport) => transport.close()));
    await (await nats.jetstreamManager()).streams.delete(`${namespace}_events`);
  });

  it('sizes and ages the stream as configured, and applies a new cap and age when a service starts with them', async () => {
    const DAY_NS = 24 * 3600 * 1e9;
    transports.push(await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace, { replicas: 1, maxBytes: 50_000_000 }));
    const jsm = await nats.jetstreamManager();
    expect((await jsm.streams.info(`${namespace}_events`)).config).toMatchObject({ num_replicas: 1, max_bytes: 50_000_000, max_age: 7 * DAY_NS });
    transports.push(await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace, { replicas: 1, maxBytes: 80_000_000, maxAgeMs: 3 * 24 * 3600_000 }));
    expect((await jsm.streams.info(`${namespace}_events`)).config).toMatchObject({ max_bytes: 80_000_000, max_age: 3 * DAY_NS });
  });

  it('lets replicas start at once on one durable and handles each event on exactly one of them', async () => {
    const handledBy = new Map<string, number[]>();
    const replicas = await Promise.all([replica(), replica(), replica()]);
    await Promise.all(
      replicas.map((transport, index) =>
        transport.consume('billing.invoices', ['note.added'], async (e) => {
          handledBy.set(e.id, [...(handledBy.get(e.id) ?? []), index]);
        }),
      ),
    );

    const events = Array.from({ length: 20 }, (_, n) => envelope({ n }));
    for (const event of events) await replicas[0]?.publish(event);

    await eventually(() => (handledBy.size === events.length ? true : undefined));
    expect([...handledBy.values()].every((replicas) => replicas.length === 1)).toBe(true);
  });

  it('holds nothing back on stop, so the next subscriber gets the rest without waiting for the ack timeout', async () => {
    const transport = await replica();
    const handled = new Set<string>();
    let started = 0;
    const first = await transport.consume('indexer', ['note.added'], async (e) => {
      started += 1;
      await new Promise((r) => setTimeout(r, 100));
      handled.add(e.id);
    });
    for (let n = 0; n < 10; n++) await transport.publish(envelope({ n }));
    await eventually(() => (started > 0 ? true : undefined));
    await first.stop();
    expect(handled.size).toBe(1);

    await transport.consume('indexer', ['note.added'], async (e) => void handled.add(e.id));
    await eventually(() => (handled.size === 10 ? true : undefined), 5_000);
  });

  it('delivers to a new durable what the stream already holds', async () => {
    const transport = await replica();
    const earlier = envelope();
    await transport.publish(earlier);

    const received: string[] = [];
    await transport.consume('late-joiner', ['note.added'], async (e) => void received.push(e.id));
    await eventually(() => (received.length > 0 ? true : undefined));
    expect(received).toEqual([earlier.id]);
  });

  it('drops a message that is not an envelope instead of redelivering it forever', async () => {
    const transport = await replica();
    const received: string[] = [];
    await transport.consume('indexer', ['note.added'], async (e) => void received.push(e.id));

    await nats.jetstream().publish(`${namespace}.events.note.added`, new TextEncoder().encode('not json'));
    const valid = envelope();
    await transport.publish(valid);

    await eventually(() => (received.length > 0 ? true : undefined));
    expect(received).toEqual([valid.id]);
    const info = await (await nats.jetstreamManager()).consumers.info(`${namespace}_events`, 'indexer');
    expect(info.num_ack_pending + info.num_pending).toBe(0);
  });
});
