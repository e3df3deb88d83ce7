import { BaseRpcContext, Server, type CustomTransportStrategy, type MessageHandler, type WritePacket } from '@nestjs/microservices';
import { problem } from '@gatehouse/platform';
import { TimeoutError } from 'rxjs';
import type { RequestClient } from './bus-client.service';
import { overTheWire } from '../over-the-wire';
import { handleRequest } from './request-handling';

type Respond = (packet: WritePacket) => void;


/** Routes requests between the services of one process, by namespaced subject. */
export class InProcessRequestBroker {
  private readonly routes = new Map<string, { server: InProcessServer; pattern: string }>();

  register(subject: string, server: InProcessServer, pattern: string): void {
    const existing = this.routes.get(subject);
    if (existing && existing.server !== server) throw new Error(`Two services answer ${subject}`);
    this.routes.set(subject, { server, pattern });
  }

  unregister(server: InProcessServer): void {
    for (const [subject, route] of this.routes) if (route.server === server) this.routes.delete(subject);
  }

  dispatch(subject: string, data: unknown, deadline: number, respond: Respond): void {
    const route = this.routes.get(subject);
    if (!route) {
      respond({ err: problem('service_unavailable', 'No service answers this request.'), isDisposed: true });
      return;
    }
    void route.server.handle(route.pattern, overTheWire(data), deadline, (packet) => respond(overTheWire(packet)));
  }
}

class InProcessContext extends BaseRpcContext<[string]> {}

/** The NestJS transport strategy of a service on the in-process bus. */
export class InProcessServer extends Server implements CustomTransportStrategy {
  constructor(
    private readonly broker: InProcessRequestBroker,
    private readonly namespace: string,
  ) {
    super();
  }

  listen(callback: () => void): void {
    for (const pattern of this.messageHandlers.keys()) this.broker.register(`${this.namespace}.${pattern}`, this, pattern);
    callback();
  }

  close(): void {
    this.broker.unregister(this);
  }

  /** Patterns are plain strings: Nest's own lookup tries JSON.parse on each first, and the exception costs more than the lookup. */
  override getHandlerByPattern(pattern: string): MessageHandler | null {
    return this.messageHandlers.get(pattern) ?? null;
  }

  async handle(pattern: string, data: unknown, deadline: number, respond: Respond): Promise<void> {
    const handler = this.getHandlerByPattern(pattern);
    if (!handler) return respond({ err: problem('service_unavailable'), isDisposed: true });
    const packet = await handleRequest(handler, pattern, data, new InProcessContext([pattern]), deadline);
    if (packet) respond(packet);
  }

  on(): void {
    // The in-process transport has no connection status to report.
  }

  unwrap<T>(): T {
    return this.broker as T;
  }

  /** The broker lives in this process: a request always reaches it. */
  async probe(): Promise<boolean> {
    return true;
  }
}

/** The client of the in-process bus: requests go straight to the broker. */
export class InProcessClient implements RequestClient {
  private readonly waiting = new WaitingRequests();

  constructor(
    private readonly broker: InProcessRequestBroker,
    private readonly namespace: string,
  ) {}

  async connect(): Promise<void> {
    // Nothing to connect to: the broker lives in this process.
  }

  async close(): Promise<void> {
    // Nothing to close.
  }

  async probe(): Promise<boolean> {
    return true;
  }

  request(pattern: string, data: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const deadline = Date.now() + timeoutMs;
      const waiting = this.waiting.add(deadline, () => reject(new TimeoutError()));
      this.broker.dispatch(`${this.namespace}.${pattern}`, data, deadline, (reply) => {
        if (!this.waiting.settle(waiting)) return;
        if (reply.err !== undefined && reply.err !== null) reject(reply.err);
        else resolve(reply.response);
      });
    });
  }
}

/** How often waiting requests are checked against their deadlines: a timeout fires up to this late. */
const DEADLINE_TICK_MS = 10;

/**
 * The requests of one client waiting for their replies, timed out by one coarse timer that runs
 * only while some wait, instead of a timer set and cleared per request (a cost the in-process
 * access check felt).
 */
class WaitingRequests {
  private readonly entries = new Set<{ deadline: number; expire: () => void }>();
  private timer: NodeJS.Timeout | undefined;

  add(deadline: number, expire: () => void): { deadline: number; expire: () => void } {
    const entry = { deadline, expire };
    this.entries.add(entry);
    this.timer ??= setInterval(() => this.expireDue(), DEADLINE_TICK_MS).unref();
    return entry;
  }

  /** True when the entry was still waiting (its reply counts), false when it had timed out. */
  settle(entry: { deadline: number; expire: () => void }): boolean {
    // The timer stops at its next tick with nothing waiting, not here: between two requests it would be cleared and set again.
    return this.entries.delete(entry);
  }

  private expireDue(): void {
    const now = Date.now();
    for (const entry of this.entries) {
      if (entry.deadline > now) continue;
      this.entries.delete(entry);
      entry.expire();
    }
    if (this.entries.size === 0) this.stop();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
