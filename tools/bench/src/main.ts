// `npm run bench [-- --services] [-- --duration=10 --connections=32 --database-url=postgres://…]`:
// loads bare Fastify and the system with the same client and prints one table (docs/performance.md);
// `npm run bench -- --only=import [--rows=100000]` imports a generated file instead and times it.
import { runBench, parseBenchArgs } from './lib/bench';

runBench(parseBenchArgs(process.argv.slice(2))).then(
  (table) => {
    process.stdout.write(`${table}\n`);
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  },
);
