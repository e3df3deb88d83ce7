// `npm test` after build:web: the lint (module boundaries included) and the type-check run beside
// Jest at a lower CPU priority, in the time Jest's suites spend waiting on services, timers and
// the browser; their output is printed whole when each ends, Jest's as it comes. Fails when any fails.
import { spawn } from 'node:child_process';

/** Runs an npm script; `quiet` keeps its output until it ends. Resolves with its exit status. */
function run(script, { nice = false, quiet = false } = {}) {
  const [command, args] = nice ? ['nice', ['-n', '10', 'npm', 'run', '--silent', script]] : ['npm', ['run', '--silent', script]];
  const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      if (quiet) process.stdout.write(`\n── npm run ${script}: ${status === 0 ? 'passed' : `failed (${status})`}\n${Buffer.concat(output).toString()}`);
      resolve(status);
    });
  });
}

const statuses = await Promise.all([run('lint', { nice: true, quiet: true }), run('typecheck', { nice: true, quiet: true }), run('test:jest')]);
process.exit(statuses.some((status) => status !== 0) ? 1 : 0);
