import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { requestPattern } from '@gatehouse/contracts';
import { AppError, createLogger, ProblemFilter } from '@gatehouse/platform';
import { testNatsUrl, uniqueNamespace } from '@gatehouse/testing';
import { connect, headers, JSONCodec, type NatsConnection } from 'nats';
import { connect as tcpConnect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { BusOptions } from '../../bus-options';
import { createRequestClient } from '../../bus.module';
import { BusClient } from '../bus-client.service';
import { Handles } from '../handles.decorator';
import { DEADLINE_HEADER, natsConnectionOptions, NatsRequestServer } from '../nats.transport';

const Record = requestPattern<{ id: string }, { recorded: string }>('test.record');
const Chain = requestPattern<{ id: string }, { recorded: string }>('test.chain');

@Controller()
class RecordingHandlers {
  static recorded: string[] = [];
  static client: BusClient;

  @Handles(Record)
  record({ id }: { id: string }) {
    RecordingHandlers.recorded.push(id);
    return { recorded: id };
  }

  /** Asks on: the request it sends inherits this one's deadline. */
  @Handles(Chain)
  async chain({ id }: { id: string }) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return RecordingHandlers.client.request(Record, { id });
  }
}

@Module({ controllers: [RecordingHandlers] })
class RecordingModule {}

/** The NATS request transport against the real NATS: deadlines, queue-group membership, the bus probe. */
describe('requests over NATS', () => {
  const namespace = uniqueNamespace('nats-req');
  const options: BusOptions = { service: 'identity', namespace, transport: { kind: 'nats', servers: [testNatsUrl()] } };
  let server: NatsRequestServer;
  let app: INestMicroservice;
  let client: BusClient;
  let raw: NatsConnection;

  beforeAll(async () => {
    server = new NatsRequestServer({ servers: [testNatsUrl()] }, 'identity', namespace, 5_000);
    app = await NestFactory.createMicroservice(RecordingModule, { strategy: server, logger: false });
    app.useGlobalFilters(new ProblemFilter(createLogger('test', 'silent')));
    await app.listen();
    client = new BusClient(options, createRequestClient(options));
    RecordingHandlers.client = client;
    raw = await connect({ servers: testNatsUrl() });
  });

  afterAll(async () => {
    await app?.close();
    await client?.onApplicationShutdown();
    await raw?.close();
  });

  beforeEach(() => (RecordingHandlers.recorded = []));

  it('answers a request within its deadline and drops, undone and unanswered, one whose caller stopped waiting', async () => {
    expect(await client.request(Record, { id: 'in-time' })).toEqual({ recorded: 'in-time' });
    const late = headers();
    late.set(DEADLINE_HEADER, String(Date.now() - 1));
    const reply = raw.request(`${namespace}.${Record.pattern}`, JSONCodec().encode({ id: 'too-late' }), { timeout: 1_000, headers: late });
    await expect(reply).rejects.toThrow(/TIMEOUT/);
    expect(RecordingHandlers.recorded).toEqual(['in-time']);
  });

  it("gives a request sent by a handler no more time than the handler's own caller has left", async () => {
    // The first caller waits 200 ms; the handler asks on only after 300 ms: that request is never sent.
    await expect(client.request(Chain, { id: 'chained' }, 200)).rejects.toMatchObject({ code: 'service_unavailable' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(RecordingHandlers.recorded).toEqual([]);
  });

  it('stops taking requests while out of its queue group, fails them fast, and takes them again once back', async () => {
    await server.accept(false);
    expect(server.member).toBe(false);
    const started = Date.now();
    await expect(client.request(Record, { id: 'while-out' })).rejects.toEqual(expect.any(AppError));
    expect(Date.now() - started).toBeLessThan(2_000);
    await server.accept(true);
    expect(await client.request(Record, { id: 'back' })).toEqual({ recorded: 'back' });
    expect(RecordingHandlers.recorded).toEqual(['back']);
  });

  it('probes the path through NATS to itself', async () => {
    expect(await server.probe()).toBe(true);
    expect(await client.probe()).toBe(true);
  });

  it('with NATS_PING_INTERVAL_MS, leaves a server cut off without a reset (a partition) for another server of the cluster', async () => {
    // A link to NATS that can go silent while its sockets stay open, as a partitioned host's does.
    const nats = new URL(testNatsUrl());
    const link = new SilentLink(Number(nats.port), nats.hostname);
    const port = await link.listen();
    const nc = await connect({
      ...natsConnectionOptions({ servers: [`nats://127.0.0.1:${port}`, testNatsUrl()], pingIntervalMs: 500 }, 'partition-test'),
      noRandomize: true,
    });
    try {
      expect(nc.getServer()).toBe(`127.0.0.1:${port}`);
      link.silence();
      // Two unanswered pings end the connection; a new attempt over the silent link is given up
      // after one interval; the client lands on the other server. The client library alone would
      // wait two minutes of pings.
      const moved = (async () => {
        for await (const status of nc.status()) if (status.type === 'reconnect' && status.data === nats.host) return status.data;
      })();
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise((resolve) => (timer = setTimeout(() => resolve('still on the silent link'), 10_000)));
      await expect(Promise.race([moved, stuck]).finally(() => clearTimeout(timer))).resolves.toBe(nats.host);
      await nc.flush();
    } finally {
      await nc.close();
      await link.close();
    }
  });
});

/** A TCP relay to a server that, once silenced, forwards nothing more either way and keeps every socket open. */
class SilentLink {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private silent = false;

  constructor(port: number, host: string) {
    this.server = createServer((client) => {
      const upstream = tcpConnect(port, host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => socket.destroy());
      }
      client.on('data', (chunk) => this.silent || upstream.write(chunk));
      upstream.on('data', (chunk) => this.silent || client.write(chunk));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  listen(): Promise<number> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as AddressInfo).port)));
  }

  silence(): void {
    this.silent = true;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
