import { changeNotice, type EventEnvelope } from '@gatehouse/contracts';
import { eventually, testNatsUrl, uniqueNamespace } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import type { EventTransport } from '../event-transport';
import { InProcessEventTransport } from '../in-process.transport';
import { JetStreamEventTransport } from '../jetstream.transport';

const KeyRevoked = changeNotice<{ n: number }>('key.revoked');
const Other = changeNotice<{ n: number }>('other');
const RulesChanged = changeNotice<{ n: number }>('rules.changed');
const Late = changeNotice<{ n: number }>('late');

const envelope = (name: string, data: unknown): EventEnvelope => ({
  id: randomUUID(),
  name,
  publicationId: null,
  occurredAt: new Date().toISOString(),
  data,
});

/** Each factory yields a connector: in-process replicas share one transport, NATS replicas each connect. */
describe.each([
  [
    'in-process',
    () => {
      const shared = new InProcessEventTransport();
      return async () => shared;
    },
  ],
  [
    'JetStream',
    () => {
      const namespace = uniqueNamespace();
      return () => JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace);
    },
  ],
])('listen() fan-out on the %s transport', (transportName, factory: () => () => Promise<EventTransport>) => {
  let publisher: EventTransport;
  let replicaA: EventTransport;
  let replicaB: EventTransport;

  beforeAll(async () => {
    const connect = factory();
    publisher = await connect();
    replicaA = await connect();
    replicaB = await connect();
  });

  afterAll(async () => {
    for (const t of new Set([publisher, replicaA, replicaB])) await t.close();
  });

  it('gives every listener every event of its names, and only those', async () => {
    const seenA: unknown[] = [];
    const seenB: unknown[] = [];
    const a = await replicaA.listen([KeyRevoked], async (e) => void seenA.push(e.data));
    const b = await replicaB.listen([KeyRevoked, Other], async (e) => void seenB.push(e.data));
    await publisher.publish(envelope('key.revoked', { n: 1 }));
    await publisher.publish(envelope('unrelated', { n: 2 }));
    await publisher.publish(envelope('other', { n: 3 }));
    await eventually(() => (seenA.length === 1 && seenB.length === 2 ? true : undefined), 5_000);
    expect(seenA).toEqual([{ n: 1 }]);
    expect(seenB).toEqual([{ n: 1 }, { n: 3 }]);
    await a.stop();
    await b.stop();
  });

  it('has every broadcast the broker acknowledged in the listeners once caughtUp() resolves', async () => {
    const seen: number[] = [];
    const listener = await replicaA.listen([RulesChanged], async (e) => void seen.push(e.data.n));
    for (let n = 1; n <= 30; n++) {
      await publisher.publish(envelope('rules.changed', { n }));
      await replicaA.caughtUp();
      expect(seen.at(-1)).toBe(n);
    }
    await listener.stop();
  });

  it('answers caughtUp() true once the broker confirmed, false from a transport that lost its broker', async () => {
    await expect(replicaA.caughtUp()).resolves.toBe(true);
    const connect = factory();
    const lost = await connect();
    await lost.close();
    // In process nothing is lost: there is no broker to lose.
    await expect(lost.caughtUp()).resolves.toBe(transportName === 'in-process');
  });

  it('stops delivering after stop()', async () => {
    const seen: unknown[] = [];
    const listener = await replicaA.listen([Late], async (e) => void seen.push(e.data));
    await listener.stop();
    await publisher.publish(envelope('late', { n: 1 }));
    const probe: unknown[] = [];
    const after = await replicaB.listen([Late], async (e) => void probe.push(e.data));
    await publisher.publish(envelope('late', { n: 2 }));
    await eventually(() => (probe.length === 1 ? true : undefined), 5_000);
    expect(seen).toEqual([]);
    await after.stop();
  });
});
