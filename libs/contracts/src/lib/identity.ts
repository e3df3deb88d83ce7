import { requestPattern } from './patterns';

/** A public signing key as a JSON Web Key (RFC 7517). */
export interface PublicJwk {
  kty: string;
  kid: string;
  alg: string;
  use: 'sig';
  crv?: string;
  x?: string;
  y?: string;
}

export interface Jwks {
  keys: PublicJwk[];
}

/** The public keys customer access tokens are verified with; served at /api/v1/auth/.well-known/jwks.json. */
export const GetJwks = requestPattern<Record<string, never>, Jwks>('identity.jwks.get');

/** `iss` and `aud` of every customer access token; verifiers check both and pin ES256 (decisions D2). */
export const CUSTOMER_TOKEN_ISSUER = 'gatehouse-identity';
export const CUSTOMER_TOKEN_AUDIENCE = 'gatehouse-api';
export const CUSTOMER_TOKEN_ALGORITHM = 'ES256';
export const ACCESS_TOKEN_TTL_SECONDS = 900;
export const REFRESH_TOKEN_TTL_DAYS = 30;

/** Claims of a customer access token. */
export interface CustomerTokenClaims {
  /** The customer id. */
  sub: string;
  /** The publication id. */
  pub: string;
  iat: number;
  exp: number;
  iss: string;
  aud: string;
  /** Whether the customer's address was verified when the token was issued (a registration wall may require it). */
  email_verified?: boolean;
}

export interface CustomerView {
  id: string;
  email: string;
  name: string;
  /** True once the customer proved the address theirs: a verification link, a reset or a sign-in code (docs/email.md). */
  emailVerified: boolean;
}

/** Spec 2.2: returned by register, login and refresh. */
export interface CustomerAuthResult {
  accessToken: string;
  refreshToken: string;
  /** Access-token expiry, Unix epoch milliseconds. */
  expiresAt: number;
  customer: CustomerView;
}

export interface CustomerProfile extends CustomerView {
  createdAt: string;
}

export const IdentityRequests = {
  /**
   * 409 email_taken when the email is registered in the publication (decisions D1). Sends the
   * verification message, in the language of `locale`, its link leading to `returnUrl`.
   */
  Register: requestPattern<{ publicationId: string; email: string; password: string; name: string; locale?: string; returnUrl?: string }, CustomerAuthResult>(
    'identity.customers.register',
  ),
  /** 401 invalid_credentials for an unknown email or a wrong password, alike; 429 after 10 failures in 15 min (C4). */
  Login: requestPattern<{ publicationId: string; email: string; password: string }, CustomerAuthResult>('identity.customers.login'),
  /** Rotates: the presented token is used up. A reused token revokes its whole family (D3). */
  Refresh: requestPattern<{ publicationId: string; refreshToken: string }, CustomerAuthResult>('identity.customers.refresh'),
  /**
   * Revokes the token's family; an unknown token is not an error (D4). `everywhere`: every family
   * of the token's customer (all devices), when the token is live; a dead one revokes its own family only.
   */
  Logout: requestPattern<{ publicationId: string; refreshToken: string; everywhere?: boolean }, { loggedOut: true }>('identity.customers.logout'),
  /**
   * The signed-in reader changes their own name or email. A new email is unverified until the
   * verification message sent to it (in the reader's account-email language, its link leading to
   * `returnUrl`) is opened; 409 email_taken when another customer of the publication has it.
   */
  UpdateProfile: requestPattern<
    { publicationId: string; customerId: string; name?: string; email?: string; returnUrl?: string },
    CustomerProfile
  >('identity.customers.update-profile'),
  /** 404 when the customer is not in the publication. */
  GetCustomer: requestPattern<{ publicationId: string; customerId: string }, CustomerProfile>('identity.customers.get'),
  /** The publication a customer id belongs to (deleted customers included); null for an id never issued. For billing's placement of events (F6). */
  PublicationOfCustomer: requestPattern<{ customerId: string }, { publicationId: string | null }>('identity.customers.publication'),
  /** Customers deleted since `since` (ISO 8601), so a gateway that starts refuses their unexpired tokens too. */
  RecentlyDeleted: requestPattern<{ since: string }, { customers: Array<{ customerId: string; deletedAt: string }> }>('identity.customers.recently-deleted'),
} as const;
