import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { ResolvedApiKey, ResolvedSession } from '@gatehouse/contracts';
import { AppError } from '@gatehouse/platform';
import type { FastifyRequest } from 'fastify';

export interface VerifiedCustomer {
  customerId: string;
  publicationId: string;
  /** The token's `email_verified` claim. */
  emailVerified: boolean;
}

/** Who is calling, as established by the edge guard. */
export interface Principal {
  apiKey?: ResolvedApiKey;
  customer?: VerifiedCustomer;
  session?: ResolvedSession;
}

export type RequestWithPrincipal = FastifyRequest & { principal?: Principal };

/** The caller's verified credentials, set by the edge guard before the handler runs. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  return context.switchToHttp().getRequest<RequestWithPrincipal>().principal ?? {};
});

/*
 * Accessors for handlers: the route's @Auth rule guarantees what is present; these fail closed
 * should a route ever be declared with a rule that does not provide it.
 */
export function keyPublicationOf(principal: Principal): string {
  if (!principal.apiKey) throw new AppError('api_key_missing', 'Send an API key in the X-API-Key header.');
  return principal.apiKey.publicationId;
}

/** For `session-or-secret` routes: the session's current publication, or the secret key's. */
export function publicationOf(principal: Principal): string {
  return principal.session?.publicationId ?? keyPublicationOf(principal);
}

export function customerOf(principal: Principal): VerifiedCustomer {
  if (!principal.customer) throw new AppError('customer_token_required', 'Send the customer access token as a Bearer token.');
  return principal.customer;
}

export function sessionOf(principal: Principal): ResolvedSession {
  if (!principal.session) throw new AppError('session_required', 'Log in to the dashboard first.');
  return principal.session;
}
