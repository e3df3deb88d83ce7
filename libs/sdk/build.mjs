// Builds @gatehouse/sdk into dist/libs/sdk: the ES module with its types (for bundlers) and the
// minified classic script the gateway serves at /sdk/v1/gatehouse.js. Fails when the classic
// script, gzipped, is over its budget.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const out = join(root, 'dist/libs/sdk');
const BUDGET_BYTES = 10 * 1024;
const target = 'es2020';

rmSync(out, { recursive: true, force: true });

const common = { bundle: true, platform: 'browser', target, sourcemap: true, tsconfig: join(here, 'tsconfig.json'), logLevel: 'warning', legalComments: 'none' };
await build({ ...common, entryPoints: [join(here, 'src/index.ts')], format: 'esm', outfile: join(out, 'index.mjs') });
await build({ ...common, entryPoints: [join(here, 'src/classic.ts')], format: 'iife', minify: true, outfile: join(out, 'gatehouse.js') });

// Declarations; the contracts' come along so that the package needs nothing unpublished.
const types = join(out, 'types');
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(here, 'tsconfig.lib.json'), '--outDir', types], { stdio: 'inherit' });
const contractsIndex = join(types, 'contracts/src/index');
for (const file of walk(join(types, 'sdk'))) {
  const relativeContracts = relative(dirname(file), contractsIndex).replace(/\\/g, '/');
  const text = readFileSync(file, 'utf8').replace(/(['"])@gatehouse\/contracts\1/g, `'${relativeContracts.startsWith('.') ? relativeContracts : `./${relativeContracts}`}'`);
  writeFileSync(file, text);
}
cpSync(join(here, 'package.json'), join(out, 'package.json'));

const classic = readFileSync(join(out, 'gatehouse.js'));
const gzipped = gzipSync(classic, { level: 9 }).length;
console.log(`@gatehouse/sdk: gatehouse.js ${classic.length} bytes minified, ${gzipped} bytes gzipped (budget ${BUDGET_BYTES})`);
if (gzipped > BUDGET_BYTES) {
  console.error(`@gatehouse/sdk: gatehouse.js is ${gzipped} bytes gzipped, over the budget of ${BUDGET_BYTES} bytes.`);
  process.exit(1);
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (path.endsWith('.d.ts')) yield path;
  }
}
