import pino from 'pino';
import { Writable } from 'node:stream';
import { LazyChildLogger, REDACTED_PATHS } from '../logging';

/** A pino logger at `info` whose lines land in `lines`, redacting as the services' loggers do. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream);
  return { logger, lines };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("a request's logger made when it first writes", () => {
  it('writes nothing and makes no child for a line below the level; writes an enabled line with the request id, redacted', async () => {
    const { logger, lines } = capturingLogger();
    const child = jest.spyOn(logger, 'child');
    // Fastify passes the route's level: '' when the route sets none.
    const requestLog = new LazyChildLogger(logger, { reqId: 'req-1' }, { level: '' });

    requestLog.debug({ url: '/api/v1/access/check' }, 'request');
    requestLog.trace('detail');
    await settle();
    expect(lines).toEqual([]);
    expect(child).not.toHaveBeenCalled();
    expect(requestLog.level).toBe('info');

    requestLog.warn({ status: 500, password: 'hunter2' }, 'request failed');
    requestLog.info('second line %s', 'formatted');
    await settle();
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map(({ reqId, msg, status, password }) => ({ reqId, msg, status, password }))).toEqual([
      { reqId: 'req-1', msg: 'request failed', status: 500, password: '[redacted]' },
      { reqId: 'req-1', msg: 'second line formatted', status: undefined, password: undefined },
    ]);
  });

  it("follows a route's own level", async () => {
    const { logger, lines } = capturingLogger();
    const requestLog = new LazyChildLogger(logger, { reqId: 'req-2' }, { level: 'debug' });
    requestLog.debug('seen at the route’s level');
    await settle();
    expect(lines.map(({ reqId, msg }) => ({ reqId, msg }))).toEqual([{ reqId: 'req-2', msg: 'seen at the route’s level' }]);
  });
});
