import type { ServiceName } from '@gatehouse/contracts';
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
  /** Replicas and size cap of the event stream (EVENT_STREAM_REPLICAS, EVENT_STREAM_MAX_BYTES). */
  stream?: EventStreamLimits;
  /** How long closing waits for the requests in hand to be answered (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs?: number;
}

export interface EventStreamLimits {
  replicas: number;
  /** -1: no size cap, only the age limit. */
  maxBytes: number;
}

export const BUS_OPTIONS = Symbol('BUS_OPTIONS');

/** NATS when NATS_URL is set, else the process's in-process hub: chosen by configuration only. */
export function busTransportFromConfig(natsUrl: string | undefined, hub: () => InProcessHub): BusTransport {
  return natsUrl ? { kind: 'nats', servers: natsUrl.split(',') } : { kind: 'in-process', hub: hub() };
}
