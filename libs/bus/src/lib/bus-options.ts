import type { ServiceName } from '@gatehouse/contracts';
import type { BusConfig } from '@gatehouse/platform';
import { InProcessEventTransport } from './events/in-process.transport';
import { InProcessRequestBroker } from './requests/in-process.transport';

/**
 * Everything that travels in one process when the services run together (`npm start`): requests
 * and events go through these in-memory brokers instead of NATS, behind the same interfaces.
 */
export class InProcessHub {
  readonly requests = new InProcessRequestBroker();
  readonly events = new InProcessEventTransport();
}

export type BusTransport = { kind: 'nats'; servers: string[] } | { kind: 'in-process'; hub: InProcessHub };

export interface BusOptions {
  service: ServiceName;
  /** Prefix of every subject, stream and durable consumer name (BUS_NAMESPACE). */
  namespace: string;
  transport: BusTransport;
  /** How long a request waits for its reply before failing with 503 service_unavailable. */
  requestTimeoutMs?: number;
  /** Replicas, size cap and age of the event stream (EVENT_STREAM_REPLICAS, EVENT_STREAM_MAX_BYTES, EVENT_RETENTION_DAYS). */
  stream?: EventStreamLimits;
  /** How long closing waits for the requests in hand to be answered (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs?: number;
}

export interface EventStreamLimits {
  replicas: number;
  /** -1: no size cap, only the age limit. */
  maxBytes: number;
  /** The age limit; also how long published outbox rows and handled-event ids are kept. EVENT_RETENTION_MS when absent. */
  maxAgeMs?: number;
}

export const BUS_OPTIONS = Symbol('BUS_OPTIONS');

/** The event stream's limits as configured. */
export function eventStreamLimits(config: BusConfig): EventStreamLimits {
  return { replicas: config.EVENT_STREAM_REPLICAS, maxBytes: config.EVENT_STREAM_MAX_BYTES, maxAgeMs: config.EVENT_RETENTION_DAYS * 24 * 3600_000 };
}

/** NATS when NATS_URL is set, else the process's in-process hub: chosen by configuration only. */
export function busTransportFromConfig(natsUrl: string | undefined, hub: () => InProcessHub): BusTransport {
  return natsUrl ? { kind: 'nats', servers: natsUrl.split(',') } : { kind: 'in-process', hub: hub() };
}
