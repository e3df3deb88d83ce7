import { Injectable, Logger, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuditRequests, type AuditRecord, type ResolvedSession } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { pathOfUrl, sha256Hex } from '@gatehouse/platform';
import { randomUUID } from 'node:crypto';
import { from, mergeMap, type Observable } from 'rxjs';
import { IDEMPOTENCY_HEADER } from '../edge/idempotency.service';
import type { RequestWithPrincipal } from '../edge/principal';
import { AUDIT_PUBLICATION, changesOf, NOT_AUDITED, type PublicationOfWrite } from './audit-rules';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Records every successful write of a staff session in its publication's audit log (admin), before
 * the write is answered: who (the session's staff member), what (the route's operation id, the
 * resource, the body with its secrets redacted), from where (the client address, behind
 * TRUST_PROXY as for rate limits). Keys' writes are the publisher's servers, not staff: not recorded.
 */
@Injectable()
export class AuditLogInterceptor implements NestInterceptor {
  private readonly logger = new Logger(AuditLogInterceptor.name);

  constructor(
    private readonly bus: BusClient,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const session = request.principal?.session;
    if (!session || !WRITES.has(request.method) || this.reflector.get<boolean | undefined>(NOT_AUDITED, context.getHandler())) return next.handle();
    return next.handle().pipe(mergeMap((answer) => from(this.record(() => this.entryOf(context, request, session, answer)).then(() => answer))));
  }

  private entryOf(context: ExecutionContext, request: RequestWithPrincipal, session: ResolvedSession, answer: unknown): AuditRecord {
    const params = (request.params ?? {}) as Record<string, string>;
    const publicationOf = this.reflector.get<PublicationOfWrite | undefined>(AUDIT_PUBLICATION, context.getHandler());
    const answerId = typeof (answer as { id?: unknown } | undefined)?.id === 'string' ? (answer as { id: string }).id : undefined;
    const path = pathOfUrl(request.url);
    const idempotencyKey = request.headers[IDEMPOTENCY_HEADER];
    return {
      // A retry replayed under its Idempotency-Key is the same write: the same entry, kept once.
      id: typeof idempotencyKey === 'string' ? uuidOf(`${session.staffId} ${request.method} ${path} ${idempotencyKey}`) : randomUUID(),
      publicationId: publicationOf ? publicationOf(params, answer) : session.publicationId,
      staffId: session.staffId,
      action: `${context.getClass().name}_${context.getHandler().name}`,
      method: request.method as AuditRecord['method'],
      route: request.routeOptions.url ?? path,
      path,
      resourceId: answerId ?? Object.values(params).at(-1) ?? null,
      changes: changesOf(request.body),
      address: request.ip,
      requestId: String(request.id),
    };
  }

  /** The write happened: a log that cannot be reached (or an entry that cannot be made) does not undo it; the entry goes to the error log instead. */
  private async record(entryOf: () => AuditRecord): Promise<void> {
    let entry: AuditRecord | undefined;
    try {
      entry = entryOf();
      await this.bus.request(AuditRequests.Append, entry);
    } catch (err) {
      this.logger.error(`A staff write could not be recorded in the audit log (${err instanceof Error ? err.message : String(err)}): ${entry ? JSON.stringify(entry) : 'no entry'}`);
    }
  }
}

/** A UUID made of the hash of `text`: the same text, the same id. */
function uuidOf(text: string): string {
  const hex = sha256Hex(text);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
