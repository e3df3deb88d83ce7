import type { LoggerService } from '@nestjs/common';
import pino, { type Bindings, type ChildLoggerOptions, type Level, type Logger } from 'pino';

/** Paths never written to a log: credentials in headers and secrets in bodies. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  'password',
  'secretKey',
  'webhookSecret',
  'refreshToken',
  'accessToken',
  'secret',
  '*.password',
  '*.secretKey',
  '*.webhookSecret',
  '*.refreshToken',
  '*.accessToken',
  '*.secret',
];

export function createLogger(service: string, level = process.env['LOG_LEVEL'] ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

type LogArguments = [object: unknown, message?: string, ...values: unknown[]];

/**
 * A request's logger (Fastify's `request.log`, bound to its request id), made when the request
 * first writes a line at an enabled level: most answers write none (a page view's check is logged
 * at debug), and a pino child per request was a measurable part of an access check.
 */
export class LazyChildLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): Logger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    // Fastify hands the route's level, '' when the route sets none.
    return this.made?.level ?? (this.options.level || this.parent.level);
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...line: LogArguments): void {
    this.write('fatal', line);
  }
  error(...line: LogArguments): void {
    this.write('error', line);
  }
  warn(...line: LogArguments): void {
    this.write('warn', line);
  }
  info(...line: LogArguments): void {
    this.write('info', line);
  }
  debug(...line: LogArguments): void {
    this.write('debug', line);
  }
  trace(...line: LogArguments): void {
    this.write('trace', line);
  }
  silent(): void {
    // Nothing is written at the silent level.
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.logger.child(bindings, options);
  }

  private enabled(level: Level): boolean {
    const threshold = this.level;
    return threshold !== 'silent' && this.parent.levels.values[level] >= this.parent.levels.values[threshold];
  }

  private write(level: Level, line: LogArguments): void {
    if (this.made === undefined && !this.enabled(level)) return;
    (this.logger[level] as (...line: LogArguments) => void)(...line);
  }
}

/** Lets NestJS write through the service's pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: pino.Level, message: unknown, rest: unknown[]): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    if (message instanceof Error) this.logger[level]({ err: message, context }, message.message);
    else this.logger[level]({ context }, String(message));
  }
}
