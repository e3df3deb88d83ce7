// `npm run bench:compare -- OTHER_CHECKOUT --only='known visitor' [--rounds=12 --seconds=3 --connections=32]`: this
// checkout's `npm start` and another checkout's (a `git worktree` of an older commit, say), both up
// at once and loaded in turns, so a slow minute of a shared machine falls on both (docs/performance.md).
import { resolve } from 'node:path';
import { benchArgs, natsUrlOf } from './lib/bench';
import type * as Fixtures from './lib/fixtures';
import type * as Load from './lib/load';
import type * as Processes from './lib/processes';
import type * as Scenarios from './lib/scenarios';

interface Side {
  dir: string;
  system: Processes.Started;
  scenario: Scenarios.Scenario;
  load: typeof Load.load;
  answered: number[];
}

const args = benchArgs(process.argv.slice(2));
const connections = args.number('connections', 32);

/** One checkout's system, started from its own directory with its own bench code, prepared and warmed. */
async function start(dir: string, only: RegExp): Promise<Side> {
  // Each checkout's own bench code: the fixtures and scenarios must match the system they load.
  const lib = <T>(name: string) => require(`${dir}/tools/bench/src/lib/${name}`) as T;
  process.chdir(dir);
  const system = await lib<typeof Processes>('processes').startSystem({ services: false, natsUrl: natsUrlOf(args.value('nats-url')), namespace: `bench_compare_${Date.now()}` });
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${system.url}/api/v1/health`).then((answer) => answer.ok, () => false))) {
    if (Date.now() > deadline) throw new Error(`${dir}: /api/v1/health did not answer 200 within 120 s`);
    await new Promise((done) => setTimeout(done, 200));
  }
  const scenario = lib<typeof Scenarios>('scenarios')
    .scenarios(await lib<typeof Fixtures>('fixtures').prepare(system.url))
    .find((each) => !each.baseline && only.test(each.name));
  if (!scenario) throw new Error(`${dir}: no scenario matches ${String(only)}`);
  const { load } = lib<typeof Load>('load');
  await load(system.url, scenario, { connections, durationSeconds: 5 });
  return { dir, system, scenario, load, answered: [] };
}

async function compare(): Promise<string> {
  const other = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
  if (!other) throw new Error('usage: npm run bench:compare -- OTHER_CHECKOUT --only=SCENARIO [--rounds=12 --seconds=3]');
  // A regular expression of scenario names, as `npm run bench --only` takes; the first that matches is loaded.
  const only = new RegExp(args.value('only') ?? 'known visitor');
  const [rounds, seconds] = [args.number('rounds', 12), args.number('seconds', 3)];
  const sides: Side[] = [];
  try {
    for (const dir of [resolve(other), process.cwd()]) sides.push(await start(dir, only));
    const lines: string[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        side.answered.push((await side.load(side.system.url, side.scenario, { connections, durationSeconds: seconds })).rps);
      }
      lines.push(`| ${round + 1} | ${sides.map((side) => Math.round(side.answered[round])).join(' | ')} |`);
    }
    const mean = (side: Side) => side.answered.reduce((sum, rps) => sum + rps, 0) / side.answered.length;
    return [
      `${sides[0].scenario.name}: ${rounds} rounds of ${seconds} s each, in turns`,
      '',
      `| round | ${sides.map((side) => side.dir).join(' | ')} |`,
      '|---|---|---|',
      ...lines,
      `| mean | ${sides.map((side) => Math.round(mean(side))).join(' | ')} |`,
      '',
      `this checkout answered ${(mean(sides[1]) / mean(sides[0])).toFixed(3)} times the other's req/s`,
    ].join('\n');
  } finally {
    for (const side of sides) await side.system.stop();
  }
}

compare().then(
  (table) => process.stdout.write(`${table}\n`),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  },
);
