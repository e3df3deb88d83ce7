import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { BusClient } from '@gatehouse/bus';
import { createTestDatabase, type TestDatabase } from '@gatehouse/testing';
import { DataSource } from 'typeorm';
import { ProcessReadiness, ProcessState, REQUEST_SERVER, type ProbedServer } from '../process-readiness.service';

/**
 * Readiness asks the process's dependencies each time it is asked; checks that arrive while one is
 * under way share it, so a burst of probes and health requests costs one database query and one
 * bus round trip. The database is real; the queries it is sent and the bus probes are counted.
 */
describe('the readiness of a process', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  let app: INestApplicationContext;
  let readiness: ProcessReadiness;
  const state = new ProcessState();
  const sent: string[] = [];
  let probes = 0;
  let busAnswers = true;
  const server: ProbedServer = {
    probe: async () => {
      probes += 1;
      await new Promise((done) => setTimeout(done, 20));
      return busAnswers;
    },
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    const query = dataSource.query.bind(dataSource);
    dataSource.query = ((text: string, ...rest: unknown[]) => {
      sent.push(text);
      return query(text, ...(rest as []));
    }) as DataSource['query'];

    @Module({
      imports: [TerminusModule.forRoot({ logger: false })],
      providers: [
        ProcessReadiness,
        { provide: ProcessState, useValue: state },
        { provide: DataSource, useValue: dataSource },
        { provide: REQUEST_SERVER, useValue: server },
        // The request server above is probed; the bus client is not asked.
        { provide: BusClient, useValue: {} },
      ],
    })
    class ReadinessModule {}
    app = await NestFactory.createApplicationContext(ReadinessModule, { logger: false });
    readiness = app.get(ProcessReadiness);
  });

  afterAll(async () => {
    await app?.close();
    await dataSource?.destroy();
    await db?.drop();
  });

  beforeEach(() => {
    sent.length = 0;
    probes = 0;
  });

  it('answers a burst of checks with one query and one bus probe, every check the same answer', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => readiness.check()));
    expect(answers).toEqual(Array.from({ length: 20 }, () => ({ status: 'up', checks: { database: 'up', bus: 'up' } })));
    expect(sent).toEqual(['SELECT 1']);
    expect(probes).toBe(1);
  });

  it('asks again for a check that arrives after the last one answered, and tells what changed', async () => {
    await readiness.check();
    busAnswers = false;
    expect(await readiness.check()).toEqual({ status: 'down', checks: { database: 'up', bus: 'down' } });
    busAnswers = true;
    state.draining = true;
    expect(await readiness.check()).toEqual({ status: 'down', checks: { database: 'up', bus: 'up', shutdown: 'down' } });
    state.draining = false;
    expect(sent).toEqual(['SELECT 1', 'SELECT 1', 'SELECT 1']);
    expect(probes).toBe(3);
  });
});
