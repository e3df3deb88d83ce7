import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { ProblemDetails } from '@gatehouse/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { Observable, throwError } from 'rxjs';
import { AppError, codeForStatus, isProblem, problem } from './problem';
import { isDatabaseUnavailable } from './unavailable';

/**
 * Turns anything thrown into problem details. Known errors keep their code; anything else is
 * logged with the request id and answered as `internal_error` without internals (decisions B3).
 */
export function toProblem(exception: unknown, logger: Logger, requestId?: string): ProblemDetails {
  if (exception instanceof AppError) return exception.problem;
  if (isProblem(exception)) return exception;
  if (exception instanceof ThrottlerException) return problem('rate_limited');
  // NestJS hands over Fastify's own errors (body too large, malformed JSON, media type) as HttpExceptions.
  if (exception instanceof HttpException && exception.getStatus() < 500) {
    return problem(codeForStatus(exception.getStatus()), exception.message);
  }
  if (isDatabaseUnavailable(exception)) {
    logger.warn({ err: exception, requestId }, 'database unavailable');
    return AppError.retryLater('service_unavailable', 'The database is unavailable; retry shortly.', 5).problem;
  }
  logger.error({ err: exception, requestId }, 'unexpected error');
  return problem('internal_error', 'An unexpected error occurred. Quote the request id when reporting it.');
}

export function sendProblem(reply: FastifyReply, body: ProblemDetails): void {
  if (body.retryAfter !== undefined) void reply.header('Retry-After', body.retryAfter);
  void reply.status(body.status).header('content-type', 'application/problem+json; charset=utf-8').send(body);
}

/**
 * Every error as problem details, wherever it was thrown: over HTTP as the answer
 * (`application/problem+json`), over the bus as a plain problem-details object the caller
 * rethrows as the same AppError.
 */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> | void {
    if (host.getType() === 'rpc') return throwError(() => toProblem(exception, this.logger));
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    sendProblem(http.getResponse<FastifyReply>(), toProblem(exception, this.logger, request.id));
  }
}
