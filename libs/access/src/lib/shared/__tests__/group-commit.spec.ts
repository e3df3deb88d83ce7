import { openMigratedDatabase } from '@gatehouse/db';
import { createTestDatabase, type TestDatabase } from '@gatehouse/testing';
import type { DataSource } from 'typeorm';
import { GroupCommit, type SharedStatement } from '../group-commit';

describe('group commit', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await openMigratedDatabase({ url: db.url, schema: 'group_commit', entities: [], migrations: [] });
    await dataSource.query('CREATE TABLE written (id int PRIMARY KEY, txid bigint NOT NULL)');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  const insert = (id: number) => async (manager: DataSource['manager']) => {
    const [{ txid }] = await manager.query('INSERT INTO written (id, txid) VALUES ($1, txid_current()) RETURNING txid', [id]);
    return Number(txid);
  };

  it('commits the works that arrive while a transaction commits together in the next one, each caller answered with its own result', async () => {
    const commits = new GroupCommit(dataSource);
    const first = commits.run(insert(1));
    const meanwhile = await Promise.all([2, 3, 4, 5].map((id) => commits.run(insert(id))));
    const firstTx = await first;
    expect(new Set(meanwhile).size).toBe(1);
    expect(meanwhile[0]).not.toBe(firstTx);
    const rows: Array<{ id: number; txid: string }> = await dataSource.query('SELECT id, txid FROM written WHERE id <= 5 ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(rows.slice(1).map((row) => row.txid)).size).toBe(1);
  });

  it('fails only the work that fails: the others of its transaction are committed on their own', async () => {
    const commits = new GroupCommit(dataSource);
    const warmUp = commits.run(insert(10));
    const outcomes = await Promise.allSettled([commits.run(insert(11)), commits.run(insert(10)), commits.run(insert(12))]);
    await warmUp;
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const rows: Array<{ id: number }> = await dataSource.query('SELECT id FROM written WHERE id >= 10 ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual([10, 11, 12]);
  });

  it('holds each work\'s lock before it reads, across replicas: read-then-write works under one lock never interleave', async () => {
    await dataSource.query('CREATE TABLE tickets (holder text NOT NULL, number int NOT NULL, UNIQUE (holder, number))');
    // Each work takes the next free number of its holder: without the lock two replicas would take the same one.
    const takeNext = (holder: string) => async (manager: DataSource['manager']) => {
      const [{ next }] = await manager.query('SELECT coalesce(max(number), 0) + 1 AS next FROM tickets WHERE holder = $1', [holder]);
      await manager.query('INSERT INTO tickets (holder, number) VALUES ($1, $2)', [holder, next]);
      return Number(next);
    };
    const replicas = [new GroupCommit(dataSource), new GroupCommit(dataSource)];
    const taken = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const holder = i % 2 === 0 ? 'ann' : 'bob';
        return replicas[i % 4 < 2 ? 0 : 1].run(takeNext(holder), `tickets:${holder}`).then((number) => ({ holder, number }));
      }),
    );
    for (const holder of ['ann', 'bob']) {
      expect(taken.filter((t) => t.holder === holder).map((t) => t.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    }
  });

  it('runs the works that share a statement as one statement per round, a round never holding two inputs under one lock', async () => {
    await dataSource.query('CREATE TABLE numbered (holder text NOT NULL, number int NOT NULL, UNIQUE (holder, number))');
    const calls: string[][] = [];
    // The next free number of each holder, for many holders in one statement.
    const numberAll: SharedStatement<string, number> = async (manager, holders) => {
      calls.push(holders);
      const rows: Array<{ number: number }> = await manager.query(
        `WITH input AS (SELECT holder, n FROM unnest($1::text[]) WITH ORDINALITY AS i(holder, n)),
              next AS (SELECT input.n, input.holder, coalesce((SELECT max(number) FROM numbered WHERE numbered.holder = input.holder), 0) + 1 AS number FROM input),
              saved AS (INSERT INTO numbered (holder, number) SELECT holder, number FROM next)
         SELECT number FROM next ORDER BY n`,
        [holders],
      );
      return rows.map((row) => row.number);
    };
    const commits = new GroupCommit(dataSource);
    const warmUp = commits.together(numberAll, 'zed', 'numbered:zed');
    const holders = ['ann', 'bob', 'cid', 'ann', 'bob', 'ann'];
    const numbers = await Promise.all(holders.map((holder) => commits.together(numberAll, holder, `numbered:${holder}`)));
    await warmUp;
    expect(numbers).toEqual([1, 1, 1, 2, 2, 3]);
    expect(calls).toEqual([['zed'], ['ann', 'bob', 'cid'], ['ann', 'bob'], ['ann']]);
  });
});
