import { JetStreamEventTransport } from '@gatehouse/bus';
import type { EventEnvelope } from '@gatehouse/contracts';
import { eventually, testNatsUrl } from '@gatehouse/testing';

/**
 * Every event of these names on a namespace's stream, from its beginning, as a durable consumer
 * of the test receives them: what a publisher's webhook consumer or another service would read.
 */
export class EventReader {
  /** Every event received, in the order received. */
  readonly received: EventEnvelope[] = [];

  private constructor(private readonly transport: JetStreamEventTransport) {}

  static async start(namespace: string, names: string[]): Promise<EventReader> {
    const reader = new EventReader(await JetStreamEventTransport.connect({ servers: [testNatsUrl()] }, namespace));
    await reader.transport.consume('test-reader', names, async (envelope) => void reader.received.push(envelope));
    return reader;
  }

  /** The events of one name whose data satisfies `matches` (all of them unless given), in the order received. */
  all<T = any>(name: string, matches: (data: T) => boolean = () => true): EventEnvelope<T>[] {
    return this.received.filter((event) => event.name === name && matches(event.data as T)) as EventEnvelope<T>[];
  }

  /** The first event of that name whose data satisfies `matches`, once it has come. */
  waitFor<T = Record<string, unknown>>(name: string, matches: (data: T) => boolean): Promise<EventEnvelope<T>> {
    return eventually(() => this.all<T>(name, matches)[0]);
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
