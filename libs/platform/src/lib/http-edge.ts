import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';

/** What an HTTP process (the gateway) hands the runtime, which boots, serves and stops it. */
export interface HttpEdge {
  /** The root feature module. */
  module: DynamicModule;
  /** Fastify's own options: body limits, trusted proxies, request ids, early refusals. */
  fastify: FastifyServerOptions & Record<string, unknown>;
  /** Parsers, hooks, prefix, filters and the API document, once the app exists and before it listens. */
  configure(app: NestFastifyApplication): void | Promise<void>;
}

/** A request URL's path: what comes before its query, as `url.split('?')[0]` reads it without the array (every request asks). */
export function pathOfUrl(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
