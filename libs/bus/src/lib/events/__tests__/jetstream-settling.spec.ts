import { ErrorCode, NatsError } from 'nats';
import { whileJetStreamSettles } from '../jetstream.transport';

/**
 * A fresh NATS cluster, or a replicated stream just created, answers JetStream's API late for a
 * moment: the multi-host scenario once lost a service at start-up to one timed-out consumer
 * creation. Setting up the stream and the consumers is tried again while JetStream settles, and
 * only then.
 */
describe('JetStream set-up while the cluster settles', () => {
  const apiError = (code: number) => Object.assign(new NatsError('api error', '500'), { api_error: { code: 503, err_code: code, description: 'JetStream system temporarily unavailable' } });

  it('tries again after timeouts, no responders and "temporarily unavailable", and answers what the call answers', async () => {
    const failures = [NatsError.errorForCode(ErrorCode.Timeout), NatsError.errorForCode(ErrorCode.NoResponders), apiError(10008)];
    let calls = 0;
    const answer = await whileJetStreamSettles(async () => {
      calls += 1;
      const failure = failures.shift();
      if (failure) throw failure;
      return 'consumer';
    });
    expect(answer).toBe('consumer');
    expect(calls).toBe(4);
  });

  it('throws any other failure at once', async () => {
    let calls = 0;
    const refused = apiError(10058);
    await expect(
      whileJetStreamSettles(async () => {
        calls += 1;
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
  });

  it('gives up once the wait is over, with the last failure', async () => {
    let calls = 0;
    await expect(
      whileJetStreamSettles(async () => {
        calls += 1;
        throw NatsError.errorForCode(ErrorCode.Timeout);
      }, 300),
    ).rejects.toMatchObject({ code: ErrorCode.Timeout });
    expect(calls).toBeGreaterThan(1);
  });
});
