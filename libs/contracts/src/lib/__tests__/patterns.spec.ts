import { eventType, requestPattern, type EventType, type ReplyOf, type RequestOf, type RequestPattern } from '../patterns';

interface CheckRequest {
  url: string;
}
interface CheckReply {
  granted: boolean;
}

const Check = requestPattern<CheckRequest, CheckReply>('test.check');
const Created = eventType<{ id: string }>('test.created');

/** Stand-ins with the same signatures as BusClient.request and Outbox.add: only their types matter here. */
declare function request<Req, Res>(pattern: RequestPattern<Req, Res>, payload: NoInfer<Req>): Promise<Res>;
declare function emit<T>(event: EventType<T>, data: T): void;

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(): T => true as T;

describe('typed contracts', () => {
  it('carries only the pattern string at run time', () => {
    expect(Check).toEqual({ pattern: 'test.check' });
    expect(Object.isFrozen(Check)).toBe(true);
    expect(Created).toEqual({ name: 'test.created' });
  });

  it('binds request and reply types to the pattern', () => {
    expect(assertType<Equal<RequestOf<typeof Check>, CheckRequest>>()).toBe(true);
    expect(assertType<Equal<ReplyOf<typeof Check>, CheckReply>>()).toBe(true);
  });

  it('rejects a wrong payload or reply type at compile time', () => {
    // These calls are never made: `npm run typecheck` fails if any @ts-expect-error line compiles.
    const neverCalled = async () => {
      const reply: CheckReply = await request(Check, { url: 'https://example.com/a' });
      // @ts-expect-error a payload missing `url`
      await request(Check, {});
      // @ts-expect-error a payload of the wrong type
      await request(Check, { url: 42 });
      // @ts-expect-error the reply is not a string
      const wrong: string = await request(Check, { url: 'x' });
      emit(Created, { id: 'a' });
      // @ts-expect-error event data of the wrong shape
      emit(Created, { name: 'a' });
      return [reply, wrong];
    };
    expect(typeof neverCalled).toBe('function');
  });
});
