import { chooseInfrastructure, needsEngine } from '../test-infrastructure';

const ALL = { DATABASE_URL: 'postgres://postgres@db:5432/test', NATS_URL: 'nats://bus:4222', REDIS_URL: 'redis://cache:6379' };

describe('where the tests find PostgreSQL, NATS and Redis', () => {
  it('uses every URL that is set, and does not ask for an engine when all are', () => {
    expect(needsEngine(ALL)).toBe(false);
    expect(chooseInfrastructure(ALL, true)).toEqual({ start: [], given: ['postgres', 'nats', 'redis'], local: [] });
  });

  it('starts in containers exactly the ones whose URL is missing when an engine answers', () => {
    const env = { NATS_URL: ALL.NATS_URL, DATABASE_URL: '' };
    expect(needsEngine(env)).toBe(true);
    expect(chooseInfrastructure(env, true)).toEqual({ start: ['postgres', 'redis'], given: ['nats'], local: [] });
    expect(chooseInfrastructure({}, true)).toEqual({ start: ['postgres', 'nats', 'redis'], given: [], local: [] });
  });

  it('falls back to the local servers when no engine answers', () => {
    expect(chooseInfrastructure({ REDIS_URL: ALL.REDIS_URL }, false)).toEqual({ start: [], given: ['redis'], local: ['postgres', 'nats'] });
  });
});
