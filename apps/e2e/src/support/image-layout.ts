import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ROOT } from './processes';

/** One instruction of a Dockerfile: `COPY --from=build /src/a ./b` is { op: 'COPY', args: ['--from=build', '/src/a', './b'] }. */
interface Instruction {
  op: string;
  args: string[];
  raw: string;
}

interface Stage {
  name: string;
  workdir: string;
  instructions: Instruction[];
}

/** The stages of a Dockerfile, continuation lines joined and comments left out. */
function stagesOf(dockerfile: string): { args: Map<string, string>; stages: Stage[] } {
  const lines = readFileSync(dockerfile, 'utf8')
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  for (const raw of lines) {
    const [op, ...rest] = raw.split(/\s+/);
    const instruction = { op: op.toUpperCase(), args: rest, raw: raw.slice(op.length).trim() };
    if (instruction.op === 'FROM') {
      stages.push({ name: /\bAS\s+(\S+)/i.exec(raw)?.[1] ?? String(stages.length), workdir: '/', instructions: [] });
    } else if (instruction.op === 'ARG') {
      const [name, value = ''] = rest[0].split('=');
      args.set(name, value);
    } else if (stages.length) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  for (const stage of stages) stage.workdir = stage.instructions.filter((i) => i.op === 'WORKDIR').pop()?.args[0] ?? '/';
  return { args, stages };
}

/**
 * The `npm ci` of a stage as it installs from package-lock.json: each top-level package it keeps
 * (`--omit=dev`, `--omit=optional` honoured as npm does: a dev-and-optional package goes only with
 * both), less what the stage then removes with `rm -rf node_modules/...`, among those present here.
 */
function installedPackages(stage: Stage): string[] {
  const run = stage.instructions.filter((i) => i.op === 'RUN').map((i) => i.raw).join(' ');
  const ci = /npm ci\b([^&;]*)/.exec(run);
  if (!ci) throw new Error(`stage ${stage.name} runs no npm ci`);
  const omit = new Set([...ci[1].matchAll(/--omit=(\w+)/g)].map((m) => m[1]));
  const removed = [...run.matchAll(/rm -rf ((?:node_modules\/\S+\s*)+)/g)].flatMap((m) => m[1].trim().split(/\s+/));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; optional?: boolean; devOptional?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([path, flags]) => {
      if (!path.startsWith('node_modules/') || path.slice('node_modules/'.length).includes('/node_modules/')) return false;
      const dropped = (flags.dev && omit.has('dev')) || (flags.optional && omit.has('optional')) || (flags.devOptional && omit.has('dev') && omit.has('optional'));
      return !dropped && !removed.includes(path) && existsSync(join(ROOT, path));
    })
    .map(([path]) => path.slice('node_modules/'.length));
}

let servicesBuilt = false;

export interface ImageLayout {
  /** The image's WORKDIR, laid out in a temporary directory. */
  dir: string;
  /** The runtime stage's ENV, its ARGs filled in. */
  env: Record<string, string>;
  /** USER's uid and gid. */
  user: { uid: number; gid: number };
  /** The production packages the dependency stage installs. */
  packages: string[];
  /** CMD, in exec form. */
  command: string[];
  /** HEALTHCHECK's command, in exec form. */
  healthcheck: string[];
  /** Starts the image's command (or `command`) as the image's user, with the image's environment and `env` on top. */
  start(env: Record<string, string>, command?: string[]): ChildProcess;
  remove(): void;
}

/**
 * The runtime stage of `docker/Dockerfile` as its image holds it, on this machine without a
 * container engine: the build stage's output (`npm run build:services` and `npm run build:web`,
 * read from this repository's `dist/`), copied where the stage's COPY lines put it; the dependency
 * stage's production packages, each linked from this repository's node_modules (so a package
 * requires only what the stage installs, node resolves links where they are:
 * `--preserve-symlinks`); everything owned by root and read-only; the stage's ENV, USER and CMD.
 */
export function layOutImage(service: string): ImageLayout {
  const { args, stages } = stagesOf(join(ROOT, 'docker/Dockerfile'));
  args.set('SERVICE', service);
  const fill = (text: string) => text.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, a: string | undefined, b: string | undefined) => args.get(a ?? b ?? '') ?? whole);
  const byName = new Map(stages.map((stage) => [stage.name, stage]));
  const runtime = stages[stages.length - 1];

  // The build stage's `node tools/build-services.mjs`, once per test file (`npm test` builds the web bundles first).
  servicesBuilt ||= !!execFileSync(process.execPath, [join(ROOT, 'tools/build-services.mjs')], { cwd: ROOT, stdio: 'pipe' });
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-image-'));
  const env: Record<string, string> = {};
  let user = { uid: 0, gid: 0 };
  let packages: string[] = [];
  let command: string[] = [];
  let healthcheck: string[] = [];
  // The runtime stage's paths, absolute or relative to its WORKDIR, within `dir`.
  const inside = (path: string) => join(dir, path.startsWith(`${runtime.workdir}/`) ? path.slice(runtime.workdir.length) : path);

  for (const { op, args: words, raw } of runtime.instructions) {
    if (op === 'ENV') {
      for (const pair of words) {
        const [name, ...value] = pair.split('=');
        env[name] = fill(value.join('='));
      }
    } else if (op === 'USER') {
      const [uid, gid = uid] = words[0].split(':').map(Number);
      user = { uid, gid };
    } else if (op === 'CMD') {
      command = JSON.parse(raw) as string[];
    } else if (op === 'HEALTHCHECK') {
      healthcheck = ['/bin/sh', '-c', raw.replace(/^(--\S+\s+)*CMD\s+/, '')];
    } else if (op === 'COPY') {
      const from = /^--from=(\S+)$/.exec(words[0])?.[1];
      const paths = words.filter((word) => !word.startsWith('--')).map(fill);
      const target = paths.pop() as string;
      const source = from ? byName.get(from) : undefined;
      if (from && !source) throw new Error(`COPY from an unknown stage: ${from}`);
      for (const path of paths) {
        const destination = inside(target.endsWith('/') ? join(target, basename(path)) : target);
        mkdirSync(dirname(destination), { recursive: true });
        if (source && path === join(source.workdir, 'node_modules')) {
          packages = installedPackages(source);
          for (const name of packages) {
            mkdirSync(dirname(join(destination, name)), { recursive: true });
            symlinkSync(realpathSync(join(ROOT, 'node_modules', name)), join(destination, name));
          }
          continue;
        }
        // The build stage compiles the repository as it is here (WORKDIR /src is the repository's root).
        const local = source ? join(ROOT, path.slice(source.workdir.length)) : join(ROOT, path);
        if (!existsSync(local)) throw new Error(`${local} is missing: the image copies it (run npm run build:web first)`);
        cpSync(local, destination, { recursive: true });
      }
    }
  }
  chmodSync(dir, 0o755);
  // GNU chmod leaves symbolic links (and what they point to) alone.
  execFileSync('chmod', ['-R', 'a-w', dir]);

  const nodeDir = dirname(process.execPath);
  return {
    dir,
    env,
    user,
    packages,
    command,
    healthcheck,
    start: (extra, override) => {
      const [file, ...rest] = override ?? command;
      return spawn(file, rest, {
        cwd: dir,
        // The image's node first on PATH, a HOME the user cannot write, nothing of this test's environment.
        env: { PATH: `${nodeDir}:/usr/bin:/bin`, HOME: '/nonexistent', NODE_OPTIONS: '--preserve-symlinks', ...env, ...extra },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        ...(process.getuid?.() === 0 ? user : {}),
      });
    },
    remove: () => {
      execFileSync('chmod', ['-R', 'u+w', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
