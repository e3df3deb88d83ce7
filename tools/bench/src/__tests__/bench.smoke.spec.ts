import { testDatabaseUrl, testNatsUrl } from '@gatehouse/testing';
import { parseBenchArgs, runBench } from '../lib/bench';

// Smoke runs: the real benchmark (npm run bench) loads each scenario for 10 s; here a second of a
// few scenarios shows that each chain still produces its figures. No timing is asserted.
const miniature = [`--database-url=${testDatabaseUrl()}`, `--nats-url=${testNatsUrl()}`, '--duration=1', '--warmup=0', '--connections=4'];
const figure = '[\\d.,]+';

describe('npm run bench', () => {
  it('starts the system, prepares its fixtures and prints the ratio to bare Fastify and the mixed checks at a fixed rate', async () => {
    const table = await runBench(parseBenchArgs([...miniature, '--rate=200', '--only=no paywall|mixed']));
    expect(table).toMatch(/\| scenario \| req\/s \| p50 ms \| p99 ms \| non-2xx \| errors \| share of bare Fastify \|/);
    expect(table).toMatch(new RegExp(`\\| bare Fastify GET / \\{hello\\} \\| ${figure} \\| ${figure} \\| ${figure} \\| 0 \\| 0 \\| 100\\.0 % \\|`));
    expect(table).toMatch(new RegExp(`\\| check, no paywall covers the URL \\| ${figure} \\| ${figure} \\| ${figure} \\| 0 \\| 0 \\| ${figure} % \\|`));
    expect(table).toMatch(/at 200 req\/s offered:\n\n\| scenario \| req\/s answered \| p50 ms \| p99 ms \| non-2xx \| errors \|/);
    expect(table).toMatch(new RegExp(`\\| check, no paywall covers the URL \\| ${figure} \\| ${figure} \\| ${figure} \\| 0 \\| 0 \\|\\n`));
    expect(table).toMatch(new RegExp(`\\| mixed checks: 70 % no rule, 20 % subscriber JWT, 10 % metered new URL \\| ${figure} \\| ${figure} \\| ${figure} \\| 0 \\| 0 \\|`));
    expect(table).toMatch(/cold start to \/docs 200: [\d.]+ s/);
    expect(table).toMatch(/system memory, PSS .*: [\d,]+ MiB before the runs, [\d,]+ MiB after/);
  }, 240_000);

  it('imports a generated file through the admin route, timing its dry run and import', async () => {
    const table = await runBench(parseBenchArgs([...miniature, '--only=import', '--rows=1000']));
    expect(table).not.toMatch(/\| scenario \|/);
    expect(table).toMatch(
      new RegExp(`import of 1,000 rows \\(${figure} MiB of CSV\\): upload ${figure} s, dry run ${figure} s, import ${figure} s \\(${figure} rows/s\\); 1,000 customers and 500 subscriptions created, 0 bad rows`),
    );
    expect(table).toMatch(/system memory during the import, PSS: [\d,]+ MiB before, [\d,]+ MiB at most/);
  }, 240_000);

  it('spreads the check over two gateways and two access replicas on one NATS, each replica taking a part', async () => {
    const table = await runBench(parseBenchArgs([...miniature, '--spread']));
    expect(table).toMatch(new RegExp(`\\| check, no paywall covers the URL, gateway 1 only \\| ${figure} \\| ${figure} \\| ${figure} \\| 0 \\| 0 \\| ${figure} % \\|`));
    expect(table).toMatch(new RegExp(`\\| check, no paywall covers the URL, 2 gateways \\| ${figure} \\| ${figure} \\| ${figure} \\| 0 \\| 0 \\| ${figure} % \\|`));
    expect(table).toMatch(new RegExp(`2 gateways answered ${figure} % of one gateway's req/s`));
    const shares = (name: string) => {
      const row = table.split('\n').find((line) => line.startsWith(`| ${name} |`)) ?? '';
      return [...row.matchAll(/([\d.]+) %/g)].map((match) => Number(match[1]));
    };
    const [gateway1, gateway2, access1, access2] = ['gateway 1', 'gateway 2', 'access 1', 'access 2'].map(shares);
    // One gateway alone answers every check; with two, both answer some.
    expect(gateway1[0]).toBe(100);
    expect(gateway2[0]).toBe(0);
    expect(gateway2[1]).toBeGreaterThan(0);
    expect(gateway1[1] + gateway2[1]).toBeCloseTo(100, 0);
    // Both access replicas work in both runs.
    for (const run of [0, 1]) {
      expect(access1[run]).toBeGreaterThan(0);
      expect(access2[run]).toBeGreaterThan(0);
      expect(access1[run] + access2[run]).toBeCloseTo(100, 0);
    }
  }, 600_000);
});
