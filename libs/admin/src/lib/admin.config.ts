import { ServiceConfig } from '@gatehouse/platform';
import { IsEmail, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength } from 'class-validator';

export class AdminConfig extends ServiceConfig {
  /** The public address of the service: links, the `Secure` cookie flag, the processor webhook URL. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'must be an http(s) URL' })
  PUBLIC_BASE_URL?: string;

  /** bcrypt work factor for staff passwords; tests lower it to stay fast. */
  @IsInt({ message: 'must be an integer from 4 to 15' })
  @Min(4, { message: 'must be an integer from 4 to 15' })
  @Max(15, { message: 'must be an integer from 4 to 15' })
  BCRYPT_COST: number = 12;

  /** First admin and publication, created when no staff exists yet (decisions A3). */
  @IsOptional()
  @IsEmail({}, { message: 'must be an email address' })
  BOOTSTRAP_ADMIN_EMAIL?: string;

  @IsOptional()
  @MinLength(8, { message: 'must be at least 8 characters' })
  BOOTSTRAP_ADMIN_PASSWORD?: string;

  /** The first admin's display name; the part of the email before `@` when unset. */
  @IsOptional()
  @IsString()
  BOOTSTRAP_ADMIN_NAME?: string;

  @IsOptional()
  @IsString()
  BOOTSTRAP_PUBLICATION_NAME?: string;

  /** Days a staff session, or an invitation, is kept after it ended (expired, idle past 12 hours or signed out; accepted, revoked or expired). */
  @IsInt()
  @Min(1)
  STAFF_SESSION_RETENTION_DAYS: number = 7;

  /** Days an entry of the team change log (invitations, joins, role changes, removals) is kept. */
  @IsInt()
  @Min(1)
  TEAM_CHANGES_RETENTION_DAYS: number = 365;

  /** Days an entry of the audit log (every staff write) is kept. */
  @IsInt()
  @Min(1)
  AUDIT_LOG_RETENTION_DAYS: number = 365;

  /** Comma separated host names; `*.example.com` matches any subdomain. */
  @IsOptional()
  @Matches(/^\s*(\*\.)?[a-z0-9.-]+\s*(,\s*(\*\.)?[a-z0-9.-]+\s*)*$/i, { message: 'must be host names separated by commas' })
  BOOTSTRAP_PUBLICATION_DOMAINS?: string;

  /**
   * Where a domain's well-known proof file is fetched, `{host}` standing for the domain (a
   * wildcard's base domain). https, or http on a loopback host only (tests serve the file locally).
   */
  @Matches(/^(https:\/\/|http:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?\/)\S*\{host\}\S*$/, {
    message: 'must be an https URL holding {host} (http only on a loopback host)',
  })
  DOMAIN_PROOF_FILE_URL: string = 'https://{host}/.well-known/gatehouse-verification.txt';
}
