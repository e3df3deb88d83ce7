import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

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
