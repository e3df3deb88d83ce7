// Builds the publishable package into dist/libs/node-client: one CommonJS bundle (what it uses of
// @gatehouse/contracts inlined) and declarations in which contracts' types travel along.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'dist/libs/node-client');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [join(root, 'libs/node-client/src/index.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: join(out, 'index.js'),
  tsconfig: join(root, 'tsconfig.base.json'),
});

const types = join(out, 'types');
execFileSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'libs/node-client/tsconfig.lib.json'), '--outDir', types],
  { stdio: 'inherit' },
);
const contractsIndex = join(types, 'contracts/src/index');
for (const file of walk(types).filter((f) => f.endsWith('.d.ts'))) {
  const text = readFileSync(file, 'utf8');
  let target = relative(dirname(file), contractsIndex);
  if (!target.startsWith('.')) target = `./${target}`;
  writeFileSync(file, text.replaceAll("'@gatehouse/contracts'", `'${target}'`));
}
writeFileSync(join(out, 'index.d.ts'), "export * from './types/node-client/src/index';\n");
cpSync(join(root, 'libs/node-client/package.json'), join(out, 'package.json'));
cpSync(join(root, 'docs/server.md'), join(out, 'README.md'));

function walk(dir) {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
}
