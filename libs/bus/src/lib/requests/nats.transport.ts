import { Logger } from '@nestjs/common';
import { BaseRpcContext, Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { problem } from '@gatehouse/platform';
import { connect, Empty, ErrorCode, headers, JSONCodec, NatsError, type ConnectionOptions, type Msg, type NatsConnection, type Subscription } from 'nats';
import { randomUUID } from 'node:crypto';
import { TimeoutError } from 'rxjs';
import type { NatsEndpoint } from '../bus-options';
import type { RequestClient } from './bus-client.service';
import { handleRequest } from './request-handling';

/**
 * How every NATS connection of a process behaves: the first connection is waited for as long as
 * it takes (a process started during an outage comes up when NATS does), and a lost one is
 * retried forever, 1 to 2 s apart (jittered, so replicas do not return in step).
 */
const NATS_CONNECTION_OPTIONS = {
  maxReconnectAttempts: -1,
  reconnectTimeWait: 1_000,
  reconnectJitter: 1_000,
  waitOnFirstConnect: true,
} satisfies Partial<ConnectionOptions>;

/** A connection's options: NATS_CONNECTION_OPTIONS, the endpoint's credentials, and TLS when a URL says `tls://` or a CA bundle is given. */
export function natsConnectionOptions(endpoint: NatsEndpoint, name: string): ConnectionOptions {
  const tls = endpoint.caFile ? { caFile: endpoint.caFile } : endpoint.servers.some((server) => server.startsWith('tls://')) ? {} : undefined;
  // A server cut off answers nothing: a connection to it ends after two unanswered pings, and an
  // attempt to reach it is given up after one interval, so the client moves on to another server.
  const pings = endpoint.pingIntervalMs ? { pingInterval: endpoint.pingIntervalMs, maxPingOut: 2, timeout: endpoint.pingIntervalMs } : {};
  return { servers: endpoint.servers, name, user: endpoint.user, pass: endpoint.password, tls, ...pings, ...NATS_CONNECTION_OPTIONS };
}

/** The header carrying the moment (epoch ms) the caller stops waiting; clocks are kept in sync (NTP). */
export const DEADLINE_HEADER = 'Gatehouse-Deadline';

/** How long a probe of the bus path waits for its own message to come back. */
export const BUS_PROBE_TIMEOUT_MS = 2_000;

const json = JSONCodec<unknown>();
type Reply = { response?: unknown; err?: unknown };

/**
 * One NATS connection of this process, for requests, with a probe of the whole path: a message
 * sent through NATS to a subject only this connection listens on must come back. That fails when
 * NATS is frozen or the link hangs, where the connection status still says "connected".
 */
class NatsLink {
  private connection: Promise<NatsConnection> | undefined;
  private readonly probeSubject: string;
  private state: 'connecting' | 'connected' | 'reconnecting' | 'closed' = 'connecting';

  constructor(
    private readonly endpoint: NatsEndpoint,
    private readonly name: string,
    namespace: string,
    private readonly logger: Logger,
  ) {
    this.probeSubject = `${namespace}._probe.${randomUUID()}`;
  }

  /** The connection, once NATS answers (retried for as long as it takes). */
  connect(): Promise<NatsConnection> {
    if (!this.connection) {
      const connecting: Promise<NatsConnection> = connect(natsConnectionOptions(this.endpoint, this.name)).then((nc) => {
        // Closed while it was still waiting for NATS.
        if (this.connection !== connecting) {
          void nc.close();
          return nc;
        }
        this.state = 'connected';
        nc.subscribe(this.probeSubject, { callback: (_err, msg) => msg.respond(Empty) });
        void this.watch(nc, connecting);
        return nc;
      });
      this.connection = connecting;
    }
    return this.connection;
  }

  /** True once connected while the connection is lost: requests then fail at once instead of waiting. */
  get disconnected(): boolean {
    return this.state === 'reconnecting' || this.state === 'closed';
  }

  /** Whether a message makes the round trip through NATS within BUS_PROBE_TIMEOUT_MS. */
  async probe(): Promise<boolean> {
    const connecting = this.connect();
    if (this.state !== 'connected') return false;
    const nc = await connecting;
    return nc.request(this.probeSubject, Empty, { timeout: BUS_PROBE_TIMEOUT_MS }).then(
      () => true,
      () => false,
    );
  }

  /**
   * Drains a live connection (replies in hand go out); one still waiting for NATS is closed when it
   * comes. As with Nest's clients, a later request connects again.
   */
  async close(): Promise<void> {
    const connection = this.connection;
    if (!connection || this.state === 'closed') return;
    const state = this.state;
    this.state = 'closed';
    this.connection = undefined;
    if (state === 'connecting') {
      void connection.then((nc) => nc.close(), () => undefined);
    } else {
      const nc = await connection;
      if (!nc.isClosed()) await (state === 'connected' ? nc.drain() : nc.close()).catch(() => nc.close());
    }
    if (!this.connection) this.state = 'connecting';
  }

  private async watch(nc: NatsConnection, connection: Promise<NatsConnection>): Promise<void> {
    for await (const status of nc.status()) {
      if (this.connection !== connection) return;
      if (status.type === 'disconnect' && this.state !== 'closed') {
        this.state = 'reconnecting';
        this.logger.warn(`NATS connection lost (${this.name}), reconnecting`);
      }
      if (status.type === 'reconnect' && this.state !== 'closed') {
        this.state = 'connected';
        this.logger.log(`NATS connection back (${this.name})`);
      }
    }
  }
}

class NatsRequestContext extends BaseRpcContext<[string]> {}

function withinMs<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new TimeoutError()), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The NestJS transport strategy of a service over NATS, on `nats` directly: each request pattern
 * is a subject under the bus namespace, and replicas of a service share a queue group named after
 * it, so each request is answered once. A request carries its deadline; one that arrives after it
 * is dropped undone. A replica leaves the queue group while it is unready (`accept(false)`) and
 * when closing, which answers the requests in hand first (within `graceMs`).
 */
export class NatsRequestServer extends Server implements CustomTransportStrategy {
  private readonly link: NatsLink;
  private subscriptions: Subscription[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private accepting = false;
  private closed = false;

  constructor(
    endpoint: NatsEndpoint,
    private readonly queue: string,
    private readonly namespace: string,
    private readonly graceMs: number,
  ) {
    super();
    this.link = new NatsLink(endpoint, `${namespace}-${queue}-requests`, namespace, new Logger(`NatsRequestServer(${queue})`));
  }

  /** Whether requests reach this replica now: connected, and not drained out of its queue group. */
  get connected(): boolean {
    return !this.link.disconnected && !this.closed;
  }

  /** Whether a message makes the round trip through NATS to this replica's connection. */
  async probe(): Promise<boolean> {
    return !this.closed && this.link.probe();
  }

  /** Whether this replica is in its service's queue group. */
  get member(): boolean {
    return this.accepting;
  }

  async listen(callback: (err?: unknown) => void): Promise<void> {
    try {
      await this.link.connect();
      await this.accept(true);
      callback();
    } catch (err) {
      callback(err);
    }
  }

  /** Joins (true) or leaves (false) the queue group; messages already delivered are still answered. */
  async accept(accepting: boolean): Promise<void> {
    if (accepting === this.accepting || (accepting && this.closed)) return;
    this.accepting = accepting;
    const nc = await this.link.connect();
    if (!accepting) {
      const leaving = this.subscriptions;
      this.subscriptions = [];
      // Drained: what NATS already sent this replica is still answered. Bounded: a frozen NATS never confirms.
      await Promise.all(leaving.map((subscription) => withinMs(1_000, subscription.drain()).catch(() => subscription.unsubscribe())));
      return;
    }
    for (const pattern of this.messageHandlers.keys()) {
      const subject = `${this.namespace}.${pattern}`;
      this.subscriptions.push(nc.subscribe(subject, { queue: this.queue, callback: (_err, msg) => this.track(this.answer(pattern, msg)) }));
    }
    // Back in the group once NATS has the subscriptions: a request sent right after finds a responder.
    await withinMs(1_000, nc.flush()).catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.accept(false);
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([...this.inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, this.graceMs)))]);
    clearTimeout(timer);
    await this.link.close();
  }

  on(): void {
    // Connection changes are logged by the link and reported by `connected` and `probe()`.
  }

  unwrap<T>(): T {
    return this.link as T;
  }

  private async answer(pattern: string, msg: Msg): Promise<void> {
    const handler = this.messageHandlers.get(pattern);
    if (!handler) return;
    const deadline = Number(msg.headers?.get(DEADLINE_HEADER)) || undefined;
    let data: unknown;
    try {
      data = msg.data.length > 0 ? json.decode(msg.data) : undefined;
    } catch {
      if (msg.reply) msg.respond(json.encode({ err: problem('validation_failed', 'The request is not JSON.') } satisfies Reply));
      return;
    }
    const packet = await handleRequest(handler, pattern, data, new NatsRequestContext([msg.subject]), deadline);
    if (!packet || !msg.reply) return;
    const reply: Reply = packet.err !== undefined && packet.err !== null ? { err: packet.err } : { response: packet.response };
    msg.respond(json.encode(reply));
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }
}

/**
 * Sends requests over NATS and reads their replies, over the connection's one shared reply
 * subscription. Each request carries its deadline; a lost connection fails requests at once, and
 * a pattern no replica listens on fails at once too.
 */
export class NatsRequestClient implements RequestClient {
  private readonly link: NatsLink;

  constructor(
    endpoint: NatsEndpoint,
    private readonly namespace: string,
    name = 'client',
  ) {
    this.link = new NatsLink(endpoint, `${namespace}-${name}-requests`, namespace, new Logger('NatsRequestClient'));
  }

  get disconnected(): boolean {
    return this.link.disconnected;
  }

  async connect(): Promise<void> {
    await this.link.connect();
  }

  probe(): Promise<boolean> {
    return this.link.probe();
  }

  async close(): Promise<void> {
    await this.link.close();
  }

  /** Rejects with the reply's error, with rxjs's `TimeoutError` past `timeoutMs`, or at once when nobody listens. */
  async request(pattern: string, data: unknown, timeoutMs: number): Promise<unknown> {
    const nc = await this.connectWithin(timeoutMs);
    const deadline = headers();
    deadline.set(DEADLINE_HEADER, String(Date.now() + timeoutMs));
    let reply: Msg;
    try {
      reply = await nc.request(`${this.namespace}.${pattern}`, data === undefined ? Empty : json.encode(data), { timeout: timeoutMs, headers: deadline });
    } catch (err) {
      if (err instanceof NatsError && err.code === ErrorCode.Timeout) throw new TimeoutError();
      if (err instanceof NatsError && err.code === ErrorCode.NoResponders) throw problem('service_unavailable', `No service answers ${pattern} now.`);
      throw err;
    }
    const answer = json.decode(reply.data) as Reply;
    if (answer.err !== undefined && answer.err !== null) throw answer.err;
    return answer.response;
  }

  /** The first connection may still be waiting for NATS: a request waits for it no longer than for its reply. */
  private connectWithin(timeoutMs: number): Promise<NatsConnection> {
    return withinMs(timeoutMs, this.link.connect());
  }
}
