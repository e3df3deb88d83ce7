import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { from, mergeMap, type Observable } from 'rxjs';
import { ReadModels } from './read-models.service';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * For HTTP routes whose writes change what this replica's read models hold (a key revoked, a
 * customer deleted): the answer waits until the write's change notice reached them, so the
 * caller's next request on this replica already sees the change. Other replicas hear it as fast.
 */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  constructor(private readonly readModels: ReadModels) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const method = context.switchToHttp().getRequest<{ method?: string }>().method ?? 'GET';
    if (READS.has(method)) return next.handle();
    return next.handle().pipe(mergeMap((answer) => from(this.readModels.caughtUp().then(() => answer))));
  }
}
