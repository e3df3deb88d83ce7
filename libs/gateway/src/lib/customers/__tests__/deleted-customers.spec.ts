import type { ModuleRef } from '@nestjs/core';
import { DeletedCustomers } from '../deleted-customers';

describe('the deleted-customer set of a gateway replica', () => {
  const fifteenMinutes = 15 * 60 * 1000;
  let deleted: DeletedCustomers;

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-03-02T09:00:00Z') });
    // Only the broadcast subscription needs the module reference; these tests feed the set directly.
    deleted = new DeletedCustomers({} as ModuleRef);
  });

  afterEach(() => jest.useRealTimers());

  it('knows a deleted customer until every access token it held has expired', () => {
    deleted.add('c1');
    expect(deleted.has('c1')).toBe(true);
    expect(deleted.has('c2')).toBe(false);
    jest.advanceTimersByTime(fifteenMinutes);
    expect(deleted.has('c1')).toBe(true);
    jest.advanceTimersByTime(60_000);
    expect(deleted.has('c1')).toBe(false);
  });

  it('counts the time from the latest report of a deletion', () => {
    deleted.add('c1');
    jest.advanceTimersByTime(fifteenMinutes);
    deleted.add('c2');
    deleted.add('c1');
    jest.advanceTimersByTime(fifteenMinutes);
    expect(deleted.has('c1')).toBe(true);
    expect(deleted.has('c2')).toBe(true);
  });
});
