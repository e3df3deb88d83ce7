import { Logger } from '@nestjs/common';
import {
  AckPolicy,
  connect,
  DeliverPolicy,
  ErrorCode,
  JSONCodec,
  nanos,
  NatsError,
  RetentionPolicy,
  StorageType,
  type Consumer,
  type ConsumerConfig,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import type { EventEnvelope, EventType } from '@gatehouse/contracts';
import type { EventStreamLimits } from '../bus-options';
import type { NatsEndpoint } from '../bus-options';
import { natsConnectionOptions } from '../requests/nats.transport';
import { describeError } from './describe-error';
import { EVENT_RETENTION_MS } from './event-retention.service';
import { redeliveryDelayMs, type EventHandler, type EventListener, type EventSubscription, type EventTransport } from './event-transport';

const DUPLICATE_WINDOW_MS = 2 * 60_000;
const ACK_WAIT_MS = 30_000;
/** Also bounds how long consuming stalls after a reconnect, when a waiting pull was lost. */
const PULL_EXPIRES_MS = 5_000;
const PULL_RETRY_MS = 1_000;
/** How long `caughtUp` waits for NATS's PONG; past it the answer is "not known" (false). */
const CAUGHT_UP_WAIT_MS = 1_000;

const STREAM_CONFIG_MISMATCH = 10058;
/** What a create racing another replica's create of the same stream may get while the server settles it. */
const STREAM_SUBJECTS_OVERLAP = 10065;
const CONSUMER_NOT_FOUND = 10014;
/** "JetStream system temporarily unavailable": a cluster electing its leaders. */
const JETSTREAM_UNAVAILABLE = 10008;
/** How long setting up the stream or a consumer is tried again while JetStream settles. */
const SETTLE_WAIT_MS = 60_000;

type ConsumerFilter = Pick<ConsumerConfig, 'filter_subject' | 'filter_subjects'>;

/**
 * Events over NATS JetStream: one stream per namespace, de-duplicated by `Nats-Msg-Id` (the
 * envelope id) within the duplicate window, and one durable pull consumer per consumer name,
 * shared by the replicas that consume under that name.
 */
export class JetStreamEventTransport implements EventTransport {
  private readonly logger = new Logger(JetStreamEventTransport.name);
  private readonly codec = JSONCodec<EventEnvelope>();
  private readonly js: JetStreamClient;
  private readonly stream: string;
  private connected = true;
  private barrier: Promise<boolean> | null = null;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly namespace: string,
  ) {
    this.js = nc.jetstream();
    this.stream = streamName(namespace);
    void this.watchConnection();
  }

  isConnected(): boolean {
    return this.connected && !this.nc.isClosed();
  }

  private async watchConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect') this.connected = false;
      if (status.type === 'reconnect') this.connected = true;
    }
  }

  static async connect(endpoint: NatsEndpoint, namespace: string, limits: EventStreamLimits = { replicas: 1, maxBytes: -1 }): Promise<JetStreamEventTransport> {
    const nc = await connect(natsConnectionOptions(endpoint, `${namespace}-events`));
    try {
      const jsm = await nc.jetstreamManager();
      await whileJetStreamSettles(() => ensureStream(jsm, namespace, limits));
      return new JetStreamEventTransport(nc, jsm, namespace);
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    await this.js.publish(this.subject(envelope.name), this.codec.encode(envelope), { msgID: envelope.id });
  }

  async consume(durable: string, eventNames: string[], handler: EventHandler): Promise<EventSubscription> {
    const name = consumerName(durable);
    const consumer = await whileJetStreamSettles(async () => {
      await this.ensureConsumer(name, this.filterFor(eventNames));
      return this.js.consumers.get(this.stream, name);
    });
    const subjects = new Set(eventNames.map((event) => this.subject(event)));
    return new JetStreamSubscription(
      consumer,
      async (msg) => (subjects.has(msg.subject) ? this.handle(name, msg, handler) : msg.ack()),
      () => this.nc.isClosed() || this.nc.isDraining(),
      (err) => this.logger.warn(`Consumer ${name} could not pull, retrying in ${PULL_RETRY_MS} ms: ${describeError(err)}`),
    );
  }

  /** A plain NATS subscription per replica: messages published to the stream reach core subscribers too. */
  async listen<T>(events: EventType<T>[], handler: EventListener<T>): Promise<EventSubscription> {
    const subscriptions = events.map(({ name: event }) =>
      this.nc.subscribe(this.subject(event), {
        callback: (err, msg) => {
          if (err) return this.logger.warn(`Listener on ${event} failed: ${describeError(err)}`);
          let envelope: EventEnvelope<T>;
          try {
            // The subject names the event, whose data the publisher typed by the same EventType.
            envelope = this.codec.decode(msg.data) as EventEnvelope<T>;
          } catch (decodeError) {
            return this.logger.error(`Listener on ${event} dropped an unreadable message: ${describeError(decodeError)}`);
          }
          handler(envelope).catch((handlerError: unknown) => {
            this.logger.warn(`A listener failed on ${envelope.name} ${envelope.id}: ${describeError(handlerError)}`);
          });
        },
      }),
    );
    await this.nc.flush();
    return { stop: async () => subscriptions.forEach((subscription) => subscription.unsubscribe()) };
  }

  /**
   * A PING on the listening connection, sent after the call: NATS answers it after every message
   * it had queued for this connection, and their listeners run as each arrives, so by the PONG
   * every broadcast the server fanned out before the call was handled. (NATS fans a published
   * message out to core subscribers before JetStream acknowledges it.) Calls made before the PING
   * goes out share it, one per turn of the event loop. False when no PONG came within
   * CAUGHT_UP_WAIT_MS (or the connection is down): what the listeners hold is then not known to be current.
   */
  caughtUp(): Promise<boolean> {
    this.barrier ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.barrier = null;
      let timer: NodeJS.Timeout | undefined;
      const bounded = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CAUGHT_UP_WAIT_MS)));
      const ponged = this.nc.flush().then(
        () => true,
        () => false,
      );
      return Promise.race([ponged, bounded]).finally(() => clearTimeout(timer));
    });
    return this.barrier;
  }

  async close(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain();
  }

  private subject(eventName: string): string {
    return `${this.namespace}.events.${eventName}`;
  }

  private filterFor(eventNames: string[]): ConsumerFilter {
    if (supportsMultipleFilters(this.nc)) return { filter_subjects: eventNames.map((event) => this.subject(event)) };
    // Servers before 2.10 take one filter and accept but do not apply an update of it (2.9.10), so
    // a consumer there takes every event of the namespace, always, and `consume` skips the others.
    return { filter_subject: this.subject('>') };
  }

  /** Creates the consumer, or points an existing one at new event names; both are safe to race. */
  private async ensureConsumer(name: string, filter: ConsumerFilter): Promise<void> {
    const existing = await this.jsm.consumers.info(this.stream, name).catch((err: unknown) => {
      if (apiErrorCode(err) === CONSUMER_NOT_FOUND) return null;
      throw err;
    });
    if (!existing) {
      await this.jsm.consumers.add(this.stream, {
        durable_name: name,
        ack_policy: AckPolicy.Explicit,
        ack_wait: nanos(ACK_WAIT_MS),
        deliver_policy: DeliverPolicy.All,
        max_deliver: -1,
        ...filter,
      });
    } else if (!sameFilter(existing.config, filter)) {
      // Undefined drops the other form of filter from the merged configuration.
      await this.jsm.consumers.update(this.stream, name, { filter_subject: undefined, filter_subjects: undefined, ...filter });
    }
  }

  private async handle(name: string, msg: JsMsg, handler: EventHandler): Promise<void> {
    let envelope: EventEnvelope;
    try {
      envelope = this.codec.decode(msg.data);
    } catch (err) {
      this.logger.error(`Consumer ${name} dropped an unreadable message (stream seq ${msg.seq}): ${describeError(err)}`);
      msg.term();
      return;
    }
    try {
      await handler(envelope);
      msg.ack();
    } catch (err) {
      const delay = redeliveryDelayMs(msg.info.deliveryCount);
      this.logger.warn(`${name} failed to handle ${envelope.name} ${envelope.id}, retrying in ${delay} ms: ${describeError(err)}`);
      msg.nak(delay);
    }
  }
}

/**
 * Pulls one message at a time and handles it before pulling the next, so a subscriber never holds
 * messages it is not working on: nothing waits out its ack timeout in a client buffer, and replicas
 * of a durable share its messages as they become free.
 */
class JetStreamSubscription implements EventSubscription {
  private stopping = false;
  private delivering: Promise<void> = Promise.resolve();

  constructor(
    private readonly consumer: Consumer,
    private readonly deliver: (msg: JsMsg) => Promise<void>,
    private readonly connectionClosed: () => boolean,
    private readonly onError: (err: unknown) => void,
  ) {
    void this.run();
  }

  /** Returns once the message in hand is handled; a pull still waiting is left to expire. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.delivering;
  }

  private async run(): Promise<void> {
    while (!this.stopping && !this.connectionClosed()) {
      let msg: JsMsg | null;
      try {
        msg = await this.consumer.next({ expires: PULL_EXPIRES_MS });
      } catch (err) {
        if (this.stopping || this.connectionClosed()) return;
        this.onError(err);
        await new Promise((resolve) => setTimeout(resolve, PULL_RETRY_MS));
        continue;
      }
      if (!msg) continue;
      // A pull left waiting by stop() may still be answered: hand that message straight back.
      if (this.stopping) return msg.nak();
      this.delivering = this.deliver(msg);
      await this.delivering;
    }
  }
}

/** Removes a namespace's event stream and every event in it: tearing down an environment, or a test's namespace. */
export async function deleteEventStream(servers: string[], namespace: string): Promise<void> {
  const nc = await connect({ servers });
  try {
    await (await nc.jetstreamManager()).streams.delete(streamName(namespace)).catch(() => undefined);
  } finally {
    await nc.close();
  }
}

function streamName(namespace: string): string {
  return `${namespace}_events`;
}

/** Consumer names may not contain dots, wildcards, path separators or whitespace. */
function consumerName(durable: string): string {
  return durable.replace(/[^A-Za-z0-9_-]/g, '_');
}

async function ensureStream(jsm: JetStreamManager, namespace: string, limits: EventStreamLimits): Promise<void> {
  const config = {
    name: streamName(namespace),
    subjects: [`${namespace}.events.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    max_age: nanos(limits.maxAgeMs ?? EVENT_RETENTION_MS),
    num_replicas: limits.replicas,
    max_bytes: limits.maxBytes,
  };
  for (let attempt = 1; ; attempt++) {
    try {
      // Adding a stream that exists with the same configuration succeeds, so replicas may race here;
      // two creates in the same instant may instead see each other's subjects, so the loser tries again.
      await jsm.streams.add(config);
      return;
    } catch (err) {
      const code = apiErrorCode(err);
      if (code === STREAM_SUBJECTS_OVERLAP && attempt < 5) {
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
        continue;
      }
      if (code !== STREAM_CONFIG_MISMATCH) throw err;
      await jsm.streams.update(config.name, config);
      return;
    }
  }
}

/** `filter_subjects` came with NATS server 2.10. */
function supportsMultipleFilters(nc: NatsConnection): boolean {
  const [major = 0, minor = 0] = (nc.info?.version ?? '0.0').split('.').map(Number);
  return major > 2 || (major === 2 && minor >= 10);
}

function sameFilter(config: ConsumerConfig, filter: ConsumerFilter): boolean {
  const current = config.filter_subjects?.length ? config.filter_subjects : [config.filter_subject ?? ''];
  const wanted = filter.filter_subjects ?? [filter.filter_subject ?? ''];
  return current.length === wanted.length && current.every((subject) => wanted.includes(subject));
}

/**
 * Runs a JetStream administration call (creating the stream or a consumer, both safe to repeat),
 * again while JetStream is settling: a fresh cluster electing its leaders, or a replicated stream
 * just created, answers its API late or not at all for a moment. Any other failure, or one past
 * SETTLE_WAIT_MS, is thrown.
 */
export async function whileJetStreamSettles<T>(work: () => Promise<T>, waitMs = SETTLE_WAIT_MS): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!jetStreamSettling(err) || Date.now() >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 50 * 2 ** attempt, Math.max(0, deadline - Date.now()))));
    }
  }
}

function jetStreamSettling(err: unknown): boolean {
  if (!(err instanceof NatsError)) return false;
  return err.code === ErrorCode.Timeout || err.code === ErrorCode.NoResponders || apiErrorCode(err) === JETSTREAM_UNAVAILABLE;
}

function apiErrorCode(err: unknown): number | undefined {
  return err instanceof NatsError ? err.api_error?.err_code : undefined;
}
