import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestMicroservice } from '@nestjs/common';
import { requestPattern } from '@gatehouse/contracts';
import { AppError, ProblemFilter, createLogger } from '@gatehouse/platform';
import { InProcessHub } from '../../bus-options';
import { createRequestClient, createRequestServer } from '../../bus.module';
import { BusClient } from '../bus-client.service';
import { Handles } from '../handles.decorator';

const Echo = requestPattern<{ text: string; at?: Date }, { text: string; at?: string; length: number }>('test.echo');
const Fail = requestPattern<{ code: 'not_found' | 'boom' }, never>('test.fail');
const Slow = requestPattern<{ ms: number }, { done: true }>('test.slow');
const Missing = requestPattern<Record<string, never>, string>('test.nobody-answers');

@Controller()
class TestHandlers {
  received: unknown[] = [];

  @Handles(Echo)
  echo(request: { text: string; at?: Date }) {
    this.received.push(request);
    return { text: request.text.toUpperCase(), at: request.at as unknown as string, length: request.text.length };
  }

  @Handles(Fail)
  fail(request: { code: 'not_found' | 'boom' }): never {
    if (request.code === 'not_found') throw new AppError('not_found', 'No such thing.');
    throw new Error('database password is hunter2');
  }

  @Handles(Slow)
  async slow(request: { ms: number }) {
    await new Promise((r) => setTimeout(r, request.ms));
    return { done: true as const };
  }
}

@Module({ controllers: [TestHandlers] })
class TestModule {}

describe('in-process request bus', () => {
  const hub = new InProcessHub();
  const options = { service: 'identity' as const, namespace: 'unit', transport: { kind: 'in-process' as const, hub }, requestTimeoutMs: 300 };
  let app: INestMicroservice;
  let bus: BusClient;

  beforeAll(async () => {
    app = await NestFactory.createMicroservice(TestModule, { strategy: createRequestServer(options), logger: false });
    app.useGlobalFilters(new ProblemFilter(createLogger('test', 'silent')));
    await app.listen();
    bus = new BusClient(options, createRequestClient(options));
  });

  afterAll(() => app.close());

  it('delivers a typed request to its handler and returns the reply', async () => {
    await expect(bus.request(Echo, { text: 'hello' })).resolves.toEqual({ text: 'HELLO', length: 5 });
  });

  it('passes values as JSON, as NATS would', async () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    const reply = await bus.request(Echo, { text: 'x', at });
    expect(reply.at).toBe('2026-01-02T03:04:05.000Z');
    const handlers = app.get(TestHandlers);
    expect(handlers.received.at(-1)).toEqual({ text: 'x', at: '2026-01-02T03:04:05.000Z' });
  });

  it('returns a handler AppError to the caller with its code and message', async () => {
    const failure = bus.request(Fail, { code: 'not_found' });
    await expect(failure).rejects.toBeInstanceOf(AppError);
    await expect(failure).rejects.toMatchObject({ code: 'not_found', status: 404, message: 'No such thing.' });
  });

  it('hides the internals of an unexpected handler failure', async () => {
    const failure = bus.request(Fail, { code: 'boom' });
    await expect(failure).rejects.toMatchObject({ code: 'internal_error', status: 500 });
    await expect(failure).rejects.not.toMatchObject({ message: expect.stringContaining('hunter2') });
  });

  it('fails fast with service_unavailable when nobody answers the pattern', async () => {
    await expect(bus.request(Missing, {})).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });
  });

  it('fails with service_unavailable when the reply misses the timeout', async () => {
    const started = Date.now();
    await expect(bus.request(Slow, { ms: 1_000 })).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('keeps namespaces apart', async () => {
    const other = { ...options, namespace: 'other' };
    const otherBus = new BusClient(other, createRequestClient(other));
    await expect(otherBus.request(Echo, { text: 'a' })).rejects.toMatchObject({ code: 'service_unavailable' });
  });
});
