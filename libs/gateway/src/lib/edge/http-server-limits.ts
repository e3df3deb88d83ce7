import type { ErrorCode } from '@gatehouse/contracts';
import { problem } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../gateway.config';

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * The HTTP server's own limits: a request (headers and body) must arrive within
 * REQUEST_TIMEOUT_MS, and what Node's parser refuses before Fastify sees a request (headers over
 * 16 KiB, malformed HTTP, a timeout) is answered as problem details with an `X-Request-Id`, like
 * every other refusal. Options for the Fastify adapter.
 */
export function httpServerOptions(config: GatewayConfig, logger: Logger): Pick<FastifyServerOptions, 'requestTimeout' | 'clientErrorHandler'> & { http: ServerOptions } {
  return {
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    // Node checks the timeouts every 30 s by default: a trickled request would outlive its limit by that much.
    http: { connectionsCheckingInterval: 1_000, headersTimeout: Math.min(60_000, config.REQUEST_TIMEOUT_MS) },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => {
      // A client that went away (reset, aborted) is routine: nothing to answer, nothing to alarm anyone.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !socket.writable) {
        logger.debug({ code: error.code }, 'client connection ended before its request');
        return socket.destroy();
      }
      const code: ErrorCode = error.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'validation_failed';
      const body = problem(code, code === 'validation_failed' ? 'The request is not valid HTTP.' : undefined);
      logger.info({ code: error.code, status: body.status }, 'request refused by the HTTP parser');
      const json = JSON.stringify(body);
      socket.end(
        `HTTP/1.1 ${body.status} ${REASONS[body.status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${json}`,
      );
    },
  };
}

/** The connection limit, set on the server once it exists. */
export function limitConnections(server: Server, config: GatewayConfig): void {
  server.maxConnections = config.MAX_CONNECTIONS;
}
