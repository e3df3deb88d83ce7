import type { EventEnvelope } from '@gatehouse/contracts';
import { eventually } from '@gatehouse/testing';
import { randomUUID } from 'node:crypto';
import { InProcessEventTransport } from '../in-process.transport';

jest.setTimeout(15_000);

const envelope = (name = 'note.added', data: unknown = { n: 1 }): EventEnvelope => ({
  id: randomUUID(),
  name,
  publicationId: null,
  occurredAt: new Date().toISOString(),
  data,
});

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (err: Error) => void } {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('InProcessEventTransport', () => {
  let transport: InProcessEventTransport;
  let received: EventEnvelope[];
  const record = async (e: EventEnvelope) => {
    received.push(e);
  };

  beforeEach(() => {
    transport = new InProcessEventTransport();
    received = [];
  });
  afterEach(() => transport.close());

  it('drops a re-publish of the same id', async () => {
    await transport.consume('c', ['note.added'], record);
    const first = envelope();
    const last = envelope();
    await transport.publish(first);
    await transport.publish({ ...first, data: { n: 2 } });
    await transport.publish(last);

    await eventually(() => (received.some((e) => e.id === last.id) ? true : undefined));
    expect(received.map((e) => [e.id, e.data])).toEqual([
      [first.id, { n: 1 }],
      [last.id, last.data],
    ]);
  });

  it('delivers only the subscribed event names, as copies', async () => {
    await transport.consume('c', ['note.added'], record);
    const data = { n: 1 };
    const wanted = envelope('note.added', data);
    await transport.publish(envelope('note.removed'));
    await transport.publish(wanted);

    await eventually(() => (received.length > 0 ? true : undefined));
    expect(received).toEqual([wanted]);
    expect(received[0]?.data).not.toBe(data);
  });

  it('keeps what is published while a durable has no subscriber, and delivers it on re-subscribe', async () => {
    const subscription = await transport.consume('c', ['note.added'], record);
    await subscription.stop();
    const missed = envelope();
    await transport.publish(missed);
    await new Promise((r) => setImmediate(r));
    expect(received).toEqual([]);

    await transport.consume('c', ['note.added'], record);
    await eventually(() => (received.length > 0 ? true : undefined));
    expect(received.map((e) => e.id)).toEqual([missed.id]);
  });

  it('gives each durable its own copy, and none to a durable that did not exist yet', async () => {
    const other: EventEnvelope[] = [];
    await transport.consume('a', ['note.added'], record);
    const before = envelope();
    await transport.publish(before);
    await transport.consume('b', ['note.added'], async (e) => void other.push(e));
    const after = envelope();
    await transport.publish(after);

    await eventually(() => (received.length === 2 && other.length === 1 ? true : undefined));
    expect(received.map((e) => e.id)).toEqual([before.id, after.id]);
    expect(other.map((e) => e.id)).toEqual([after.id]);
  });

  it('redelivers after a short delay when the handler throws', async () => {
    const attempts: number[] = [];
    await transport.consume('c', ['note.added'], async (e) => {
      attempts.push(Date.now());
      if (attempts.length === 1) throw new Error('transient');
      received.push(e);
    });
    const event = envelope();
    await transport.publish(event);

    await eventually(() => (received.length > 0 ? true : undefined));
    expect(received.map((e) => e.id)).toEqual([event.id]);
    const [firstAttempt = 0, secondAttempt = 0] = attempts;
    expect(attempts).toHaveLength(2);
    expect(secondAttempt - firstAttempt).toBeGreaterThanOrEqual(900);
  });

  it('acknowledges only after the handler resolved, one envelope at a time', async () => {
    const handling = deferred();
    const started: string[] = [];
    const subscription = await transport.consume('c', ['note.added'], async (e) => {
      started.push(e.id);
      await handling.promise;
    });
    const first = envelope();
    await transport.publish(first);
    await transport.publish(envelope());
    await eventually(() => (started.length > 0 ? true : undefined));
    expect(started).toEqual([first.id]);

    // Stopping waits for the delivery in progress; as that one fails, the envelope is not acknowledged.
    const stopped = subscription.stop();
    handling.reject(new Error('crashed mid-way'));
    await stopped;

    await transport.consume('c', ['note.added'], record);
    await eventually(() => (received.length === 2 ? true : undefined), 5_000);
    expect(received.map((e) => e.id)).toContain(first.id);
  });

  it('refuses a second subscriber on the same durable', async () => {
    await transport.consume('c', ['note.added'], record);
    await expect(transport.consume('c', ['note.added'], record)).rejects.toThrow(/already has a subscriber/);
  });
});
