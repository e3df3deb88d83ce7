import { changeNotice, type EventEnvelope, type EventType } from '@gatehouse/contracts';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { InProcessEventTransport } from '../../events/in-process.transport';
import { on, ReadModel } from '../read-model';
import { ReadModels } from '../read-models.service';

/** A source the test controls: counts its loads, answers from `values`, or fails while `down`. */
function source<V>(values: Record<string, V>) {
  const state = { loads: 0, down: false, gate: null as Promise<void> | null };
  const load = async (key: string): Promise<V> => {
    state.loads++;
    if (state.gate) await state.gate;
    if (state.down) throw new Error('source down');
    return values[key];
  };
  return { state, load, values };
}

const envelope = <T>(event: EventType<T>, data: T, publicationId: string | null = null): EventEnvelope<T> => ({
  id: randomUUID(),
  name: event.name,
  publicationId,
  occurredAt: new Date().toISOString(),
  data,
});

describe('ReadModel', () => {
  it('answers from memory while fresh and loads once for concurrent readers', async () => {
    const { state, load } = source({ a: 'A' });
    const model = new ReadModel<string, string>({ name: 'test', load, max: 10, freshMs: 60_000 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => model.get('a')));
    expect(answers).toEqual(Array(20).fill('A'));
    expect(await model.get('a')).toBe('A');
    expect(state.loads).toBe(1);
  });

  it('loads again once a value is older than its freshness, per value when told', async () => {
    const { state, load, values } = source<{ known: boolean }>({ known: { known: true }, unknown: { known: false } });
    const model = new ReadModel<string, { known: boolean }>({ name: 'test', load, max: 10, freshMs: 60_000, freshMsOf: (v) => (v.known ? 60_000 : 30) });
    await model.get('known');
    await model.get('unknown');
    values.unknown = { known: true };
    await sleep(60);
    expect(await model.get('unknown')).toEqual({ known: true });
    expect(await model.get('known')).toEqual({ known: true });
    expect(state.loads).toBe(3);
  });

  it('keeps at most `max` entries, the least recently used going first', async () => {
    const { state, load } = source({ a: 1, b: 2, c: 3 });
    const model = new ReadModel<string, number>({ name: 'test', load, max: 2, freshMs: 60_000 });
    await model.get('a');
    await model.get('b');
    await model.get('a');
    await model.get('c');
    expect(model.size).toBe(2);
    expect(model.peek('b')).toBeUndefined();
    expect(model.peek('a')).toBe(1);
    expect(state.loads).toBe(3);
  });

  it('stands on the last value, then on the fallback, while the source fails, and asks again after retryMs', async () => {
    const { state, load } = source({ a: 'A', b: 'B' });
    const model = new ReadModel<string, string>({
      name: 'test',
      load,
      max: 10,
      freshMs: 20,
      staleOnFailure: { retryMs: 40, fallback: () => 'nobody' },
    });
    expect(await model.get('a')).toBe('A');
    state.down = true;
    await sleep(30);
    expect(await model.get('a')).toBe('A');
    expect(await model.get('b')).toBe('nobody');
    const loadsWhileDown = state.loads;
    expect(await model.get('a')).toBe('A');
    expect(state.loads).toBe(loadsWhileDown);
    state.down = false;
    await sleep(50);
    expect(await model.get('b')).toBe('B');
    expect(state.loads).toBe(loadsWhileDown + 1);
  });

  it('throws the failure and keeps nothing without staleOnFailure', async () => {
    const { state, load } = source({ a: 'A' });
    const model = new ReadModel<string, string>({ name: 'test', load, max: 10, freshMs: 60_000 });
    state.down = true;
    await expect(model.get('a')).rejects.toThrow('source down');
    state.down = false;
    expect(await model.get('a')).toBe('A');
  });

  it('does not take the answer of a load in flight when its key is forgotten meanwhile: its readers load again', async () => {
    const { state, load, values } = source({ a: 'old' });
    const model = new ReadModel<string, string>({ name: 'test', load, max: 10, freshMs: 60_000 });
    let open!: () => void;
    state.gate = new Promise((resolve) => (open = resolve));
    const reading = model.get('a');
    await sleep(5);
    values.a = 'new';
    model.forget('a');
    state.gate = null;
    open();
    expect(await reading).toBe('new');
    expect(await model.get('a')).toBe('new');
  });

  it('forgets matching entries, expired ones included, and every load in flight', async () => {
    const { state, load, values } = source({ 'p1:a': 'p1', 'p1:b': 'p1', 'p2:c': 'p2' });
    const model = new ReadModel<string, string>({ name: 'test', load, max: 10, freshMs: 20, staleOnFailure: { retryMs: 1_000 } });
    for (const key of Object.keys(values)) await model.get(key);
    await sleep(30);
    model.forgetWhere((value) => value === 'p1');
    state.down = true;
    // No expired p1 entry stands in any more; p2's still does.
    await expect(model.get('p1:a')).rejects.toThrow('source down');
    expect(await model.get('p2:c')).toBe('p2');
  });

  it('holds what is set in it when it has no source', () => {
    const model = new ReadModel<string, true>({ name: 'test', freshMs: 60_000 });
    model.set('x', true);
    expect(model.peek('x')).toBe(true);
    model.set('y', true, 0);
    expect(model.peek('y')).toBeUndefined();
    model.forget('x');
    expect(model.peek('x')).toBeUndefined();
  });
});

describe('ReadModels', () => {
  const KeyRevoked = changeNotice<{ keys: string[] }>('test.key.revoked');
  const PublicationChanged = changeNotice<{ publicationId: string }>('test.publication.changed');

  it('has the events a model names change it, typed by each event, from the start of the replica', async () => {
    const transport = new InProcessEventTransport();
    const readModels = new ReadModels(transport);
    const { state, load } = source<{ publicationId: string }>({ k1: { publicationId: 'p1' }, k2: { publicationId: 'p1' }, k3: { publicationId: 'p2' } });
    const keys = readModels.define<string, { publicationId: string }>({
      name: 'keys',
      load,
      max: 10,
      freshMs: 60_000,
      changedBy: [
        on(KeyRevoked, (event, model) => model.forget(...event.data.keys)),
        on(PublicationChanged, (event, model) => model.forgetWhere((key) => key.publicationId === event.data.publicationId)),
      ],
    });
    await readModels.onModuleInit();
    for (const key of ['k1', 'k2', 'k3']) await keys.get(key);

    await transport.publish(envelope(KeyRevoked, { keys: ['k3'] }));
    await readModels.caughtUp();
    expect([keys.peek('k1'), keys.peek('k3')]).toEqual([{ publicationId: 'p1' }, undefined]);

    await transport.publish(envelope(PublicationChanged, { publicationId: 'p1' }));
    await readModels.caughtUp();
    expect([keys.peek('k1'), keys.peek('k2')]).toEqual([undefined, undefined]);
    expect(state.loads).toBe(3);

    await readModels.onModuleDestroy();
    await keys.get('k1');
    await transport.publish(envelope(KeyRevoked, { keys: ['k1'] }));
    expect(keys.peek('k1')).toEqual({ publicationId: 'p1' });
  });
});
