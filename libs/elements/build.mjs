// Builds @gatehouse/elements into dist/libs/elements: an ES module for bundlers (lit left to the
// bundler), the classic script the gateway serves at /sdk/v1/elements.js (lit included) and the
// account elements' classic script at /sdk/v1/account.js (built on elements.js's lit and base
// element, so without either). Fails when the classic script and the SDK's together exceed the
// budget (min+gzip), or account.js its own.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'dist/libs/elements');
const BUDGET = 25 * 1024;
const ACCOUNT_BUDGET = 10 * 1024;
const common = { bundle: true, minify: true, sourcemap: true, target: 'es2021', legalComments: 'none', tsconfig: join(root, 'libs/elements/tsconfig.lib.json'), logLevel: 'warning' };

mkdirSync(out, { recursive: true });
await build({ ...common, entryPoints: [join(root, 'libs/elements/src/index.ts')], format: 'esm', external: ['lit', 'lit/*'], outfile: join(out, 'index.js') });
await build({ ...common, entryPoints: [join(root, 'libs/elements/src/classic.ts')], format: 'iife', outfile: join(out, 'elements.js') });
// UTF-8 as it is: the five locales' text escaped as \u sequences would be several times the size.
await build({ ...common, charset: 'utf8', entryPoints: [join(root, 'libs/elements/src/account-classic.ts')], format: 'iife', outfile: join(out, 'account.js') });
const manifest = {
  name: '@gatehouse/elements',
  version: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
  description: 'Gatehouse web components: sign-in and registration forms, auth modal, paywalls and a content lock, themed by the publication branding.',
  license: 'Apache-2.0',
  type: 'module',
  module: './index.js',
  main: './index.js',
  sideEffects: true,
  peerDependencies: { lit: '^3.3.0' },
};
writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

const gzipped = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
const sdk = join(root, 'dist/libs/sdk/gatehouse.js');
if (!existsSync(sdk)) throw new Error(`elements: ${sdk} is missing; build the SDK first (npm run build:web builds both)`);
const own = gzipped(join(out, 'elements.js'));
const total = own + gzipped(sdk);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`elements.js ${kb(statSync(join(out, 'elements.js')).size)} min, ${kb(own)} min+gzip; with gatehouse.js ${kb(total)} of ${kb(BUDGET)}`);
if (total > BUDGET) {
  console.error(`elements: elements.js and gatehouse.js are ${kb(total)} minified and gzipped together, above the ${kb(BUDGET)} budget`);
  process.exit(1);
}

const account = gzipped(join(out, 'account.js'));
console.log(`account.js ${kb(statSync(join(out, 'account.js')).size)} min, ${kb(account)} min+gzip of ${kb(ACCOUNT_BUDGET)}`);
if (account > ACCOUNT_BUDGET) {
  console.error(`elements: account.js is ${kb(account)} minified and gzipped, above its ${kb(ACCOUNT_BUDGET)} budget`);
  process.exit(1);
}
