import { BusConfig, Flag } from '@gatehouse/platform';
import { IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';

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

  /** Redis for rate-limit counters shared by every gateway replica; unset: counters per process. */
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// URL' })
  REDIS_URL?: string;

  /** Take the client IP from X-Forwarded-For (only behind a proxy you control). */
  @Flag()
  TRUST_PROXY: boolean = false;

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

/** Origins trusted with the session cookie: PUBLIC_BASE_URL's own and DASHBOARD_ORIGINS. */
export function trustedOrigins(config: GatewayConfig): Set<string> {
  const listed = (config.DASHBOARD_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  return new Set([...(config.PUBLIC_BASE_URL ? [new URL(config.PUBLIC_BASE_URL).origin] : []), ...listed]);
}
