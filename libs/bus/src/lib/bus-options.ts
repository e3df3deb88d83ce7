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

/**
 * How to reach NATS: its servers (a `tls://` URL requires TLS), the user and password when the
 * servers ask for them, and the CA bundle their certificates chain to when a private CA signed them.
 */
export interface NatsEndpoint {
  servers: string[];
  user?: string;
  password?: string;
  caFile?: string;
  /**
   * How often the client pings its server (NATS_PING_INTERVAL_MS); two unanswered pings end a
   * connection whose server is cut off without a reset (a partition), and an attempt to connect is
   * given up after one interval, so the client reconnects to another server of the cluster.
   * Unset: the client library's defaults (pings every 2 minutes, 20 s to connect).
   */
  pingIntervalMs?: number;
}

export type BusTransport = ({ kind: 'nats' } & NatsEndpoint) | { kind: 'in-process'; hub: InProcessHub };

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
export function busTransportFromConfig(config: BusConfig, hub: () => InProcessHub): BusTransport {
  return config.NATS_URL ? natsTransportFromConfig(config as BusConfig & { NATS_URL: string }) : { kind: 'in-process', hub: hub() };
}

/** NATS_URL (comma separated), NATS_USER, NATS_PASSWORD, NATS_CA_FILE and NATS_PING_INTERVAL_MS. */
export function natsTransportFromConfig(config: BusConfig & { NATS_URL: string }): BusTransport & { kind: 'nats' } {
  return {
    kind: 'nats',
    servers: config.NATS_URL.split(','),
    user: config.NATS_USER,
    password: config.NATS_PASSWORD,
    caFile: config.NATS_CA_FILE,
    pingIntervalMs: config.NATS_PING_INTERVAL_MS,
  };
}
