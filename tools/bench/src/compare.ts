// `npm run bench:compare -- OTHER_CHECKOUT --only='known visitor' [--rounds=12 --seconds=3 --connections=32 --profile=DIR]`:
// this checkout's `npm start` and another checkout's (a `git worktree` of an older commit, say),
// both up at once and loaded in turns, so a slow minute of a shared machine falls on both
// (docs/performance.md). With --profile, each system is CPU-profiled and the time each spent under
// its own rounds is shown per answered request, by package, side by side.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { benchArgs, natsUrlOf } from './lib/bench';
import { costPerRequest, type LoadWindow } from './lib/profile';
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
  /** Answers other than 2xx in its rounds: a rate limiter's 429s would make a side look fast. */
  refused: number;
  /** Where its CPU profile is written (--profile), and the stretches of its rounds. */
  profileDir?: string;
  windows: LoadWindow[];
}

const args = benchArgs(process.argv.slice(2));
const connections = args.number('connections', 32);

/** One checkout's system, started from its own directory with its own bench code, prepared and warmed. */
async function start(dir: string, only: RegExp, profileDir?: string): Promise<Side> {
  // Each checkout's own bench code: the fixtures and scenarios must match the system they load.
  const lib = <T>(name: string) => require(`${dir}/tools/bench/src/lib/${name}`) as T;
  process.chdir(dir);
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const system = await lib<typeof Processes>('processes').startSystem({ services: false, natsUrl: natsUrlOf(args.value('nats-url')), namespace: `bench_compare_${Date.now()}`, profileDir });
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
  return { dir, system, scenario, load, answered: [], refused: 0, profileDir, windows: [] };
}

async function compare(): Promise<string> {
  const other = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
  if (!other) throw new Error('usage: npm run bench:compare -- OTHER_CHECKOUT --only=SCENARIO [--rounds=12 --seconds=3 --profile=DIR]');
  // A regular expression of scenario names, as `npm run bench --only` takes; the first that matches is loaded.
  const only = new RegExp(args.value('only') ?? 'known visitor');
  const [rounds, seconds] = [args.number('rounds', 12), args.number('seconds', 3)];
  const profiles = args.value('profile');
  const sides: Side[] = [];
  const micros = () => Number(process.hrtime.bigint() / 1000n);
  let table: string;
  try {
    for (const [i, dir] of [resolve(other), process.cwd()].entries()) sides.push(await start(dir, only, profiles && resolve(profiles, `side-${i + 1}`)));
    const lines: string[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const fromUs = micros();
        const { rps, non2xx } = await side.load(side.system.url, side.scenario, { connections, durationSeconds: seconds });
        side.refused += non2xx;
        side.windows.push({ fromUs, toUs: micros(), answered: rps * seconds });
        side.answered.push(rps);
      }
      lines.push(`| ${round + 1} | ${sides.map((side) => Math.round(side.answered[round])).join(' | ')} |`);
    }
    const mean = (side: Side) => side.answered.reduce((sum, rps) => sum + rps, 0) / side.answered.length;
    table = [
      `${sides[0].scenario.name}: ${rounds} rounds of ${seconds} s each, in turns`,
      '',
      `| round | ${sides.map((side) => side.dir).join(' | ')} |`,
      '|---|---|---|',
      ...lines,
      `| mean | ${sides.map((side) => Math.round(mean(side))).join(' | ')} |`,
      `| non-2xx answers | ${sides.map((side) => side.refused).join(' | ')} |`,
      '',
      `this checkout answered ${(mean(sides[1]) / mean(sides[0])).toFixed(3)} times the other's req/s`,
    ].join('\n');
  } finally {
    for (const side of sides) await side.system.stop();
  }
  // The profiles are written as the systems stop.
  return profiles ? `${table}\n\n${costTable(sides)}` : table;
}

/** The CPU time per answered request of each side's rounds, by package, the largest differences first (--profile). */
function costTable(sides: Side[]): string {
  // Kept beside each profile, for a closer look than by package.
  for (const side of sides) writeFileSync(join(side.profileDir as string, 'windows.json'), JSON.stringify(side.windows));
  const costs = sides.map((side) => costPerRequest(side.profileDir as string, side.windows));
  const places = [...new Set(costs.flatMap((cost) => [...cost.keys()]))];
  const of = (cost: Map<string, number>, place: string) => cost.get(place) ?? 0;
  const total = (cost: Map<string, number>) => [...cost.values()].reduce((sum, micros) => sum + micros, 0);
  const rows = places
    .map((place) => ({ place, before: of(costs[0], place), after: of(costs[1], place) }))
    .sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before))
    .slice(0, 25);
  const µs = (micros: number) => micros.toFixed(1);
  return [
    'CPU time per answered request while loaded, µs (idle excluded), the largest differences first:',
    '',
    `| where | ${sides.map((side) => side.dir).join(' | ')} | difference |`,
    '|---|---|---|---|',
    `| all | ${µs(total(costs[0]))} | ${µs(total(costs[1]))} | ${µs(total(costs[1]) - total(costs[0]))} |`,
    ...rows.map(({ place, before, after }) => `| ${place} | ${µs(before)} | ${µs(after)} | ${µs(after - before)} |`),
  ].join('\n');
}

compare().then(
  (table) => process.stdout.write(`${table}\n`),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  },
);
