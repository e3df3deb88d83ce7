import { GatehouseError } from '../errors';
import { Sessions, type Locks } from '../sessions';
import { FakeLocks, keyed, MemoryStorage, RefreshServer, tick } from './fakes';

/** One tab's view of the site's tokens. */
function tab(storage: Storage, server: RefreshServer, locks: Locks | null, refresh = server.refresh, now = () => Date.now()) {
  return new Sessions({ storage: keyed(storage), refresh, locks, lockName: 'gatehouse:pk_test_site:refresh', now, sleep: tick });
}

describe('Sessions: refresh coordination', () => {
  let storage: MemoryStorage;
  let server: RefreshServer;

  beforeEach(() => {
    storage = new MemoryStorage();
    server = new RefreshServer();
  });

  it('keeps the tokens in localStorage under a key named after the publishable key', () => {
    tab(storage, server, null).save(server.issue());
    expect(JSON.parse(storage.getItem('gatehouse:pk_test_site:session')!)).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' });
  });

  it('uses the access token as it is until shortly before it expires, then refreshes it first', async () => {
    let later = 0;
    const sessions = tab(storage, server, null, server.refresh, () => Date.now() + later);
    sessions.save(server.issue(900_000));
    later = 839_000;
    expect(await sessions.accessToken()).toBe('access-1');
    expect(server.presented).toEqual([]);
    later = 841_000; // within a minute of expiry
    expect(await sessions.accessToken()).toBe('access-2');
    expect(server.presented).toEqual(['refresh-1']);
  });

  it('shares one refresh among concurrent calls of one tab', async () => {
    const sessions = tab(storage, server, null);
    sessions.save(server.issue());
    const results = await Promise.all([sessions.refresh('access-1'), sessions.refresh('access-1'), sessions.refresh('access-1')]);
    expect(server.presented).toEqual(['refresh-1']);
    expect(results.map((s) => s?.accessToken)).toEqual(['access-2', 'access-2', 'access-2']);
  });

  it('never lets two tabs present the same refresh token when Web Locks are there', async () => {
    const locks = new FakeLocks();
    const first = tab(storage, server, locks);
    const second = tab(storage, server, locks);
    first.save(server.issue());
    const [a, b] = await Promise.all([first.refresh('access-1'), second.refresh('access-1')]);
    expect(server.presented).toEqual(['refresh-1']);
    expect(a?.accessToken).toBe('access-2');
    expect(b?.accessToken).toBe('access-2');
    expect(server.revoked).toBe(false);
  });

  it('without Web Locks, the tab that loses the race takes the winner’s tokens within the grace window instead of logging out', async () => {
    const first = tab(storage, server, null);
    const second = tab(storage, server, null);
    const loggedOut = jest.fn();
    second.onChange(loggedOut);
    first.save(server.issue());
    const [a, b] = await Promise.all([first.refresh('access-1'), second.refresh('access-1')]);
    expect(server.presented).toEqual(['refresh-1', 'refresh-1']);
    expect(a?.accessToken).toBe('access-2');
    expect(b?.accessToken).toBe('access-2');
    expect(second.current()?.customer.id).toBe('customer-1');
    expect(loggedOut).not.toHaveBeenCalled();
  });

  it('a refresh token refused for good logs the reader out and says so', async () => {
    const sessions = tab(storage, server, null);
    const changes: unknown[] = [];
    sessions.save(server.issue());
    sessions.onChange((session) => changes.push(session));
    server.revoked = true;
    expect(await sessions.refresh('access-1')).toBeNull();
    expect(sessions.current()).toBeNull();
    expect(storage.getItem('gatehouse:pk_test_site:session')).toBeNull();
    expect(changes).toEqual([null]);
  });

  it('keeps the session when the service cannot be reached during a refresh', async () => {
    const unreachable = async () => {
      throw new GatehouseError('service_unavailable', 0, 'The service could not be reached.');
    };
    const sessions = tab(storage, server, null, unreachable);
    sessions.save(server.issue());
    await expect(sessions.refresh('access-1')).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(sessions.current()?.accessToken).toBe('access-1');
  });

  it('a refresh racing a logout in another tab does not bring the session back', async () => {
    const first = tab(storage, server, null);
    const second = tab(storage, server, null);
    first.save(server.issue());
    const refreshing = first.refresh('access-1');
    second.clear();
    expect(await refreshing).toBeNull();
    expect(first.current()).toBeNull();
  });

  it('tells each tab when the reader logs in or out in another, not when tokens are merely refreshed', async () => {
    const first = tab(storage, server, null);
    const second = tab(storage, server, null);
    const seen: Array<string | null> = [];
    second.onChange((session) => seen.push(session?.customer.id ?? null));
    first.save(server.issue());
    second.sync();
    await first.refresh('access-1');
    second.sync();
    first.clear();
    second.sync();
    expect(seen).toEqual(['customer-1', null]);
  });
});
