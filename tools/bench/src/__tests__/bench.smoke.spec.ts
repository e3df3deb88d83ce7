import { testDatabaseUrl, testNatsUrl } from '@gatehouse/testing';
import { parseBenchArgs, runBench } from '../lib/bench';

// A smoke run: the real benchmark (npm run bench) loads each scenario for 10 s; here one second of
// the baseline and of the no-rule check shows that the whole chain still produces its table.
describe('npm run bench', () => {
  it('starts the system, prepares its fixtures and prints a table with the ratio to bare Fastify', async () => {
    const options = parseBenchArgs([`--database-url=${testDatabaseUrl()}`, `--nats-url=${testNatsUrl()}`, '--duration=1', '--warmup=0', '--connections=4', '--only=no paywall']);
    const table = await runBench(options);
    expect(table).toMatch(/\| scenario \| req\/s \| p50 ms \| p99 ms \| non-2xx \| errors \| share of bare Fastify \|/);
    expect(table).toMatch(/\| bare Fastify GET \/ \{hello\} \| [\d,]+ \| [\d.,]+ \| [\d.,]+ \| 0 \| 0 \| 100\.0 % \|/);
    expect(table).toMatch(/\| check, no paywall covers the URL \| [\d,]+ \| [\d.,]+ \| [\d.,]+ \| 0 \| 0 \| [\d.]+ % \| [\d.,]+ \([\d,]+ req\/s answered\) \|/);
    expect(table).toMatch(/cold start to \/docs 200: [\d.]+ s/);
    expect(table).toMatch(/system memory, PSS .*: [\d,]+ MiB before the runs, [\d,]+ MiB after/);
  }, 240_000);
});
