import { MessagePattern } from '@nestjs/microservices';
import type { RequestPattern } from '@gatehouse/contracts';

/**
 * Marks a method as the handler of a bus request. The method must take the pattern's request type
 * and return its reply type, so both ends of a request are checked against the same contract.
 */
export function Handles<Req, Res>(pattern: RequestPattern<Req, Res>) {
  return <M extends (request: Req, ...rest: any[]) => Res | Promise<Res>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    MessagePattern(pattern.pattern)(target, key, descriptor);
  };
}
