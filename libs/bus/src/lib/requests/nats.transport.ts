import { ClientNats, ServerNats, type CustomTransportStrategy, type MessageHandler, type MsPattern } from '@nestjs/microservices';

/**
 * NestJS's NATS transport with every subject prefixed by the bus namespace, so several
 * environments (or test runs) can share one NATS cluster. Replicas of a service share a queue
 * group named after it, so each request is answered once.
 */
export class NamespacedNatsServer extends ServerNats implements CustomTransportStrategy {
  constructor(
    servers: string[],
    queue: string,
    private readonly namespace: string,
  ) {
    super({ servers, queue });
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
}

export class NamespacedNatsClient extends ClientNats {
  constructor(
    servers: string[],
    private readonly namespace: string,
  ) {
    super({ servers });
  }

  protected override normalizePattern(pattern: MsPattern): string {
    return `${this.namespace}.${super.normalizePattern(pattern)}`;
  }
}
