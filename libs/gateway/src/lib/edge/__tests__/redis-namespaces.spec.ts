import { randomUUID } from 'node:crypto';
import { testRedisUrl, uniqueNamespace } from '@gatehouse/testing';
import IORedis from 'ioredis';
import { RedisIdempotencyStore } from '../idempotency.service';
import { RedisWindowStorage } from '../rate-limit.storage';
import { connectRedis, RedisOrMemory } from '../redis-or-memory';

const MINUTE = 60_000;
/** Generous: this is about which keys are used, not about Redis's speed on a busy machine. */
const TIMEOUT_MS = 2_000;

/** Two deployments (BUS_NAMESPACE) sharing one Redis: each counts and remembers on its own keys. */
describe('Redis keys under BUS_NAMESPACE', () => {
  const [first, second] = [uniqueNamespace('redis-a'), uniqueNamespace('redis-b')];
  const connections = [first, second].map((namespace) => connectRedis(testRedisUrl(), TIMEOUT_MS, namespace));
  const limits = connections.map((connection) => new RedisWindowStorage(new RedisOrMemory(connection, 'rate_limit')));
  const answers = connections.map((connection) => new RedisIdempotencyStore(new RedisOrMemory(connection, 'idempotency')));
  const redis = new IORedis(testRedisUrl());

  // Until connected, the stores count in memory (as during an outage): this is about Redis's keys.
  beforeAll(() => Promise.all(connections.map((connection) => (connection.status === 'ready' ? undefined : new Promise((ready) => connection.once('ready', ready))))));

  afterAll(async () => {
    connections.forEach((connection) => connection.disconnect());
    redis.disconnect();
  });

  it('keeps rate-limit counters apart: one deployment’s callers do not use up the other’s budget', async () => {
    const caller = `ip:${randomUUID()}`;
    for (let i = 0; i < 3; i++) await limits[0].increment(caller, MINUTE, 3);
    expect(await limits[0].increment(caller, MINUTE, 3)).toMatchObject({ totalHits: 4, isBlocked: true });
    expect(await limits[1].increment(caller, MINUTE, 3)).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await redis.keys(`${first}:ratelimit:${caller}:*`)).toHaveLength(1);
    expect(await redis.keys(`ratelimit:${caller}:*`)).toEqual([]);
  });

  it('keeps Idempotency-Key answers apart: the same key in the other deployment is a first attempt', async () => {
    const key = `key:${randomUUID()}`;
    expect(await answers[0].claim(key, 'body')).toBe(true);
    await answers[0].finish(key, { fingerprint: 'body', answer: 'the first answer' });
    expect(await answers[0].get(key)).toEqual({ fingerprint: 'body', answer: 'the first answer' });
    expect(await answers[1].get(key)).toBeUndefined();
    expect(await answers[1].claim(key, 'body')).toBe(true);
    expect(await redis.exists(`${first}:idempotency:${key}`, `${second}:idempotency:${key}`)).toBe(2);
  });
});
