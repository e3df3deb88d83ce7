import type { Reflector } from '@nestjs/core';
import type { ThrottlerGenerateKeyFunction } from '@nestjs/throttler';
import { OPERATIONS_ROUTE } from '@gatehouse/platform';
import { AUTH_RULE, RATE_LIMIT_CLASS, RATE_LIMITS, type AuthRule, type RateLimitClass } from './credentials';

/** A route's edge: its credentials, its rate limit and the key its calls are counted under. */
export interface RouteEdge {
  operations: boolean;
  rule: AuthRule | undefined;
  limit: number;
  key: ThrottlerGenerateKeyFunction;
}

/** Route edges by handler, each read from the handler's decorators once: derived from code, never stale. */
const edges = new WeakMap<object, RouteEdge>();

/** What a route declares: `@Auth`, `@RateLimit`, or that it is an operations route (read on its first call, then kept). */
export function routeEdgeOf(handler: object, reflector: Reflector): RouteEdge {
  let edge = edges.get(handler);
  if (edge === undefined) {
    const target = handler as () => unknown;
    const limitClass = reflector.get<RateLimitClass | undefined>(RATE_LIMIT_CLASS, target) ?? 'default';
    edge = {
      operations: reflector.get<boolean | undefined>(OPERATIONS_ROUTE, target) === true,
      rule: reflector.get<AuthRule | undefined>(AUTH_RULE, target),
      limit: RATE_LIMITS[limitClass],
      key: (_context, tracker) => `${limitClass}:${tracker}`,
    };
    edges.set(handler, edge);
  }
  return edge;
}
