import { ClientNats, ServerNats, type CustomTransportStrategy, type MessageHandler, type MsPattern } from '@nestjs/microservices';
import { problem } from '@gatehouse/platform';
import { ErrorCode, JSONCodec, NatsError, type ConnectionOptions, type Msg, type NatsConnection, type Subscription } from 'nats';
import { randomUUID } from 'node:crypto';
import { TimeoutError } from 'rxjs';

/**
 * How every NATS connection of a process behaves: it reconnects without a limit, 1 to 2 s apart
 * (jittered, so replicas do not return in step), so the system recovers by itself within seconds
 * of NATS returning, however long the outage.
 */
export const NATS_CONNECTION_OPTIONS = {
  maxReconnectAttempts: -1,
  reconnectTimeWait: 1_000,
  reconnectJitter: 1_000,
} satisfies Partial<ConnectionOptions>;

type NestNatsStatus = 'connected' | 'disconnected' | 'reconnecting';
const packets = JSONCodec<unknown>();

/**
 * NestJS's NATS transport with every subject prefixed by the bus namespace, so several
 * environments (or test runs) can share one NATS cluster. Replicas of a service share a queue
 * group named after it, so each request is answered once. Closing drains: no new request is
 * taken, the ones in hand are answered (within `graceMs`), then the replies are flushed.
 */
export class NamespacedNatsServer extends ServerNats implements CustomTransportStrategy {
  private readonly requestSubscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly settle = new WeakMap<Msg, () => void>();
  private state: NestNatsStatus | undefined;

  constructor(
    servers: string[],
    private readonly queue: string,
    private readonly namespace: string,
    private readonly graceMs: number,
  ) {
    super({ servers, queue, ...NATS_CONNECTION_OPTIONS });
    this.status.subscribe((status) => (this.state = status as NestNatsStatus));
  }

  /** Whether requests reach this service now. */
  get connected(): boolean {
    return this.state === 'connected';
  }

  override async listen(callback: (err?: unknown) => void): Promise<void> {
    for (const [pattern, handler] of [...this.messageHandlers]) {
      this.messageHandlers.delete(pattern);
      this.messageHandlers.set(`${this.namespace}.${pattern}`, handler);
    }
    return super.listen(callback);
  }

  /** Subjects are plain strings: Nest's own lookup tries JSON.parse on each first, and the exception costs more than the lookup. */
  override getHandlerByPattern(pattern: string): MessageHandler | null {
    return this.messageHandlers.get(pattern) ?? null;
  }

  override bindEvents(client: NatsConnection): void {
    for (const channel of this.messageHandlers.keys()) {
      const handle = this.getMessageHandler(channel) as (err: NatsError | null, msg: Msg) => void;
      this.requestSubscriptions.push(client.subscribe(channel, { queue: this.queue, callback: (err, msg) => handle(err, msg) }));
    }
  }

  override async handleMessage(channel: string, msg: Msg): Promise<unknown> {
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    this.inFlight.add(finished);
    const settle = () => {
      this.inFlight.delete(finished);
      done();
    };
    this.settle.set(msg, settle);
    try {
      const handled = await super.handleMessage(channel, msg);
      // Nothing is sent back for a message without a reply subject.
      if (!msg.reply) settle();
      return handled;
    } catch (err) {
      settle();
      throw err;
    }
  }

  override getPublisher(msg: Msg, id: string, ctx: Parameters<ServerNats['getPublisher']>[2]): (response: { isDisposed?: boolean; err?: unknown }) => unknown {
    const publish = super.getPublisher(msg, id, ctx);
    return (response) => {
      const sent = publish(response);
      if (response.isDisposed || response.err !== undefined) this.settle.get(msg)?.();
      return sent;
    };
  }

  override async close(): Promise<void> {
    let connection: NatsConnection | undefined;
    try {
      connection = this.unwrap<NatsConnection>();
    } catch {
      return super.close();
    }
    // Unsubscribe from the queue group (the other replicas take the new requests) while the
    // messages already delivered to this process are still handled.
    await Promise.all(this.requestSubscriptions.map((subscription) => subscription.drain().catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.inFlight]),
      new Promise((resolve) => (timer = setTimeout(resolve, this.graceMs))),
    ]);
    clearTimeout(timer);
    if (!connection.isClosed()) await connection.drain().catch(() => undefined);
    await super.close();
  }
}

export class NamespacedNatsClient extends ClientNats {
  private state: NestNatsStatus | undefined;

  constructor(
    servers: string[],
    private readonly namespace: string,
  ) {
    super({ servers, ...NATS_CONNECTION_OPTIONS });
    this.status.subscribe((status) => (this.state = status as NestNatsStatus));
  }

  /** True once connected while the connection is lost: requests then fail at once instead of waiting. */
  get disconnected(): boolean {
    return this.state === 'disconnected' || this.state === 'reconnecting';
  }

  /**
   * One request and its reply as a promise, in the packets Nest's NATS server reads and writes,
   * over the connection's one shared reply subscription (`send` subscribes a new inbox per
   * request, through observables). Rejects with the reply's error, with rxjs's `TimeoutError` as
   * `send` would, or at once when no replica of the service listens.
   */
  async request(pattern: string, data: unknown, timeoutMs: number): Promise<unknown> {
    const connection = (await this.connect()) as NatsConnection;
    const subject = this.normalizePattern(pattern);
    let reply: Msg;
    try {
      reply = await connection.request(subject, packets.encode({ pattern, data, id: randomUUID() }), { timeout: timeoutMs });
    } catch (err) {
      if (err instanceof NatsError && err.code === ErrorCode.Timeout) throw new TimeoutError();
      if (err instanceof NatsError && err.code === ErrorCode.NoResponders) throw problem('service_unavailable', `No service answers ${pattern} now.`);
      throw err;
    }
    const answer = packets.decode(reply.data) as { err?: unknown; response?: unknown };
    if (answer.err !== undefined && answer.err !== null) throw answer.err;
    return answer.response;
  }

  protected override normalizePattern(pattern: MsPattern): string {
    return `${this.namespace}.${super.normalizePattern(pattern)}`;
  }
}
