import { apartFromRequests, currentDeadline, handleRequest } from '../request-handling';

describe('a request handler and the work it leaves behind', () => {
  it('passes its deadline to what it sends, but not to work started apart from it (a scheduler its commit woke)', async () => {
    const deadline = Date.now() + 5_000;
    const seen: Array<number | undefined> = [];
    let later: Promise<void> = Promise.resolve();
    await handleRequest(
      async () => {
        seen.push(currentDeadline());
        later = apartFromRequests(() => new Promise<void>((resolve) => setTimeout(() => resolve(void seen.push(currentDeadline())), 10)));
        return 'done';
      },
      'test.pattern',
      {},
      {} as never,
      deadline,
    );
    await later;
    expect(seen).toEqual([deadline, undefined]);
  });
});
