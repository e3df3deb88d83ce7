import type { BaseRpcContext, MessageHandler, WritePacket } from '@nestjs/microservices';
import { busMetrics } from '@gatehouse/platform';
import { AsyncLocalStorage } from 'node:async_hooks';
import { isObservable, lastValueFrom } from 'rxjs';

/**
 * The moment (epoch ms) by which the caller of the request being handled stops waiting. Requests
 * this handler sends on inherit it, so a chain of requests never outlives its first caller.
 */
const deadlines = new AsyncLocalStorage<number>();

export function currentDeadline(): number | undefined {
  return deadlines.getStore();
}

/** Runs `work` as nobody's request: what it sends (and any timer it sets) inherits no deadline. */
export function apartFromRequests<T>(work: () => T): T {
  return deadlines.exit(work);
}

/**
 * Runs one handler for a request and answers with its value or its error. A request whose caller
 * has already stopped waiting (answered 503 meanwhile, e.g. while the bus was frozen) is dropped
 * unanswered and undone: its work would be done for nobody, and a write would land after its
 * caller was told it did not.
 */
export async function handleRequest(
  handler: MessageHandler,
  pattern: string,
  data: unknown,
  context: BaseRpcContext,
  deadline: number | undefined,
): Promise<WritePacket | undefined> {
  if (deadline !== undefined && Date.now() >= deadline) {
    busMetrics.requestsDropped.inc({ pattern });
    return undefined;
  }
  try {
    const result: unknown = await (deadline === undefined ? handler(data, context) : deadlines.run(deadline, () => handler(data, context)));
    // A handler answers with its value, or (an interceptor, an exception filter) an observable of it.
    return { response: isObservable(result) ? await lastValueFrom(result, { defaultValue: undefined }) : result, isDisposed: true };
  } catch (err) {
    return { err, isDisposed: true };
  }
}
