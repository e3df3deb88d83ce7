// Decorator metadata for class-transformer's implicit conversion, which Nest's import used to bring in.
import 'reflect-metadata';
import { Transform, plainToInstance } from 'class-transformer';
import { getMetadataStorage, IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateBy, validateSync, type ValidationError } from 'class-validator';

/** Thrown when the environment does not describe a runnable service; its message is one line naming the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Validates the environment against a config class (class-validator decorators, string values
 * converted to the declared property types). Unknown variables are ignored.
 */
export function loadConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const config = plainToInstance(cls, present, { enableImplicitConversion: true });
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigError(describe(errors[0]));
  if (env['NODE_ENV'] === 'production') refusePlaceholders(cls, present);
  return config;
}

/** Values the example manifests carry until an operator replaces them. */
const PLACEHOLDER = /REPLACE[_-]?ME/i;

/** In production a variable the service reads may not keep an example value: it would start "working" with a public secret. */
function refusePlaceholders(cls: new () => object, env: Record<string, string | undefined>): void {
  const declared = new Set(getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false).map((m) => m.propertyName));
  const placeholder = [...declared].find((name) => PLACEHOLDER.test(env[name] ?? ''));
  if (placeholder) throw new ConfigError(`Invalid configuration: ${placeholder} still holds a placeholder (REPLACE_ME): set a real value`);
}

function describe(error: ValidationError): string {
  const message = Object.values(error.constraints ?? {})[0] ?? 'is invalid';
  return `Invalid configuration: ${error.property} ${message.replace(new RegExp(`^${error.property}\\s*`), '')}`;
}

export const DEFAULT_SHUTDOWN_GRACE_MS = 20_000;

/** What every process reads: how to reach the bus, and how to log. */
export class BusConfig {
  /** NATS server(s), comma separated. Unset: the in-process bus (all services in one process). */
  @IsOptional()
  @Matches(/^(nats|tls):\/\/[^\s,]+(,(nats|tls):\/\/[^\s,]+)*$/, { message: 'must be one or more nats:// or tls:// URLs, comma separated' })
  NATS_URL?: string;

  /** NATS user and password, when the servers require them (from the service's Secret). */
  @IsOptional()
  @IsString()
  NATS_USER?: string;

  @IsOptional()
  @IsString()
  NATS_PASSWORD?: string;

  /** The CA bundle (PEM) the NATS servers' certificates chain to; implies TLS. */
  @IsOptional()
  @IsString()
  NATS_CA_FILE?: string;

  /**
   * How often each NATS connection pings its server; after two unanswered pings (or a connection
   * attempt unanswered for one interval) it moves on to another server of the cluster. Unset: the
   * client library's defaults (pings every 2 minutes, 20 s to connect).
   */
  @IsOptional()
  @IsInt()
  @Min(1000)
  @Max(600_000)
  NATS_PING_INTERVAL_MS?: number;

  /** Prefix of every subject and stream name, so several environments can share one NATS cluster. */
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'must contain only letters, digits, _ and -' })
  BUS_NAMESPACE: string = 'gatehouse';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** Copies of the event stream in a clustered NATS (1, 3 or 5); applied when a service starts. */
  @IsIn([1, 3, 5])
  EVENT_STREAM_REPLICAS: number = 1;

  /** Size cap of the event stream in bytes (oldest events go first past it); -1: only the age limit. */
  @IsInt()
  @Min(-1)
  EVENT_STREAM_MAX_BYTES: number = -1;

  /**
   * Days events are kept: the event stream's age limit, and so how long published outbox rows and
   * the ids of handled events are kept (nothing older can be redelivered).
   */
  @IsInt()
  @Min(1)
  @Max(365)
  EVENT_RETENTION_DAYS: number = 7;

  /** On SIGTERM, how long the process may take to finish what it holds before it exits anyway; keep it below the pod's grace period. */
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_GRACE_MS: number = DEFAULT_SHUTDOWN_GRACE_MS;

  /** When set, liveness (/healthz), readiness (/readyz) and Prometheus metrics (/metrics) are served on this port. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(65535)
  HEALTH_PORT?: number;
}

/** What every backend service reads: the bus, and its database. */
export class ServiceConfig extends BusConfig {
  /** PostgreSQL. Unset: an embedded PostgreSQL under DATA_DIR. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  DATABASE_URL?: string;

  /**
   * The CA bundle (PEM) DATABASE_URL's server certificate must chain to, for a server whose
   * certificate a private CA signed; the connection is TLS with the host name checked.
   */
  @IsOptional()
  @IsString()
  @ValidateBy({
    name: 'withDatabaseUrl',
    validator: { validate: (_value: unknown, args) => (args?.object as ServiceConfig).DATABASE_URL !== undefined, defaultMessage: () => 'needs DATABASE_URL (the embedded PostgreSQL has no TLS)' },
  })
  DATABASE_CA_FILE?: string;

  @IsString()
  DATA_DIR: string = '.data';
}

/** A true/false environment flag: `true`/`1` or `false`/`0`; anything else is reported as invalid. */
export function Flag(): PropertyDecorator {
  return (target, key) => {
    Transform(({ obj }) => {
      const raw = String(obj[key as string] ?? '').toLowerCase();
      return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : obj[key as string];
    })(target, key);
    IsBoolean({ message: 'must be true or false' })(target, key);
  };
}

const SECONDS_LIST = /^\s*\d+(\.\d+)?\s*(,\s*\d+(\.\d+)?\s*)*$/;

/** `"10,60"` → `[10, 60]`. */
export function parseSecondsList(value: string): number[] {
  return value.split(',').map(Number);
}

/** Seconds after the first attempt: each later than the one before, the first after 0. */
export function IncreasingSecondsList(): PropertyDecorator {
  return ValidateBy({
    name: 'increasingSecondsList',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && SECONDS_LIST.test(value) && parseSecondsList(value).every((s, i, all) => s > (i === 0 ? 0 : all[i - 1])),
      defaultMessage: () => 'must be increasing seconds separated by commas, e.g. 10,60',
    },
  });
}
