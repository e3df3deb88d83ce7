import { BusConfig, ConfigError } from '@gatehouse/platform';
import { isIP } from 'node:net';
import { IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';

const TRUST_PROXY_FORMAT = /^(true|false|\d{1,2}|[0-9A-Fa-f.:/]+(\s*,\s*[0-9A-Fa-f.:/]+)*)$/;

export class GatewayConfig extends BusConfig {
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT: number = 3000;

  /** The public address of the service (used for links, the `Secure` cookie flag and the CSRF origin). */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;

  /**
   * On SIGTERM, how long readiness fails while the gateway still serves, so the load balancer
   * stops sending before connections are refused (a preStop delay). Then in-flight requests finish.
   */
  @IsInt()
  @Min(0)
  @Max(120_000)
  SHUTDOWN_DELAY_MS: number = 0;

  /**
   * How long a client has to send a whole request, headers and body, before it is answered 408
   * and the connection closed: a client trickling a body cannot hold a connection for good.
   */
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  REQUEST_TIMEOUT_MS: number = 30_000;

  /** Connections one gateway process holds open at most; past that new ones are closed at once. */
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  MAX_CONNECTIONS: number = 10_000;

  /** Redis for rate-limit counters shared by every gateway replica; unset: counters per process. */
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// URL' })
  REDIS_URL?: string;

  /**
   * A Redis call slower than this fails and the gateway counts in its own memory for a second
   * (docs/operations.md). Tens of milliseconds: Redis answers in one; raise it only where the
   * gateway's own event loop stalls longer (an overloaded machine).
   */
  @IsInt()
  @Min(5)
  @Max(5_000)
  REDIS_TIMEOUT_MS: number = 50;

  /**
   * Which proxies' `X-Forwarded-For` entries to believe: a hop count (`1`: the one proxy in front;
   * `true` means 1) or a comma-separated list of the proxies' addresses or CIDR ranges
   * (`10.0.0.0/8,fd00::/8`). The client IP is the right-most entry no trusted proxy wrote, so a
   * client cannot choose it by sending the header itself. `false`/`0`: the socket's address.
   */
  @Matches(TRUST_PROXY_FORMAT, { message: 'must be false, true, a hop count, or a comma-separated list of IP addresses or CIDR ranges' })
  TRUST_PROXY: string = 'false';

  /** Extra origins (comma separated) allowed to make cookie-authenticated writes. */
  @IsOptional()
  @IsString()
  DASHBOARD_ORIGINS?: string;

  /** The built dashboard, served at /dashboard when it holds an index.html (`npm run build:web`). */
  @IsString()
  DASHBOARD_DIR: string = 'dist/apps/dashboard';

  /** A request header carrying the visitor's ISO country code, set by your CDN (e.g. CF-IPCountry). */
  @IsOptional()
  @Matches(/^[A-Za-z0-9-]+$/, { message: 'must be a header name' })
  COUNTRY_HEADER?: string;

  /** Where `npm run build:web` put the browser bundles served under /sdk/v1; `dist/` of the repository when unset. */
  @IsOptional()
  @IsString()
  WEB_ASSETS_DIR?: string;
}

/** TRUST_PROXY as Fastify takes it: false, a hop count, or the trusted addresses and ranges. */
export function trustedProxies(config: GatewayConfig): false | number | string[] {
  const value = config.TRUST_PROXY.trim().toLowerCase();
  if (value === 'false' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value);
  const ranges = value.split(',').map((range) => range.trim());
  for (const range of ranges) {
    const [address, bits, extra] = range.split('/');
    const family = isIP(address);
    const width = family === 4 ? 32 : 128;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= width))) {
      throw new ConfigError(`Invalid configuration: TRUST_PROXY has "${range}", which is not an IP address or CIDR range`);
    }
  }
  return ranges;
}

/** Origins trusted with the session cookie: PUBLIC_BASE_URL's own and DASHBOARD_ORIGINS. */
export function trustedOrigins(config: GatewayConfig): Set<string> {
  const listed = (config.DASHBOARD_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  return new Set([...(config.PUBLIC_BASE_URL ? [new URL(config.PUBLIC_BASE_URL).origin] : []), ...listed]);
}
