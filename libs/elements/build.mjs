// Builds @gatehouse/elements into dist/libs/elements: an ES module for bundlers (lit left to the
// bundler), the classic script the gateway serves at /sdk/v1/elements.js (lit included), the
// message tables of the locales other than English (messages/<lang>.json, served as
// /sdk/v1/messages-<lang>.<hash>.json: both scripts name each table by the hash of its content), and
// the account elements' classic script at /sdk/v1/account.js and the gift element's at
// /sdk/v1/gift.js (built on elements.js's lit and base element, so without either). Fails when the
// classic script and the SDK's together exceed the budget (min+gzip), or account.js or gift.js its own.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'dist/libs/elements');
const BUDGET = 26 * 1024;
// About 9.4 KB with <gatehouse-organisation> (also the account's manager's page) and the account's passes and articles.
const ACCOUNT_BUDGET = 13 * 1024;
const GIFT_BUDGET = 5 * 1024;
const common = { bundle: true, minify: true, sourcemap: true, target: 'es2021', legalComments: 'none', tsconfig: join(root, 'libs/elements/tsconfig.lib.json'), logLevel: 'warning' };

mkdirSync(out, { recursive: true });
// Each table as JSON; its name carries the first 12 hex digits of its SHA-256, as the gateway names what it serves for good.
const locales = join(root, 'libs/elements/src/locales');
rmSync(join(out, 'messages'), { recursive: true, force: true });
mkdirSync(join(out, 'messages'));
const files = {};
for (const source of readdirSync(locales).filter((name) => name.endsWith('.ts')).sort()) {
  const lang = source.replace(/\.ts$/, '');
  const compiled = await build({ ...common, sourcemap: false, minify: false, entryPoints: [join(locales, source)], format: 'esm', write: false });
  const table = (await import(`data:text/javascript;base64,${Buffer.from(compiled.outputFiles[0].text).toString('base64')}`)).default;
  const json = JSON.stringify(table);
  writeFileSync(join(out, 'messages', `${lang}.json`), json);
  files[lang] = `messages-${lang}.${createHash('sha256').update(json).digest('hex').slice(0, 12)}.json`;
}
const define = { GATEHOUSE_LOCALE_FILES: JSON.stringify(files) };
await build({ ...common, define, entryPoints: [join(root, 'libs/elements/src/index.ts')], format: 'esm', external: ['lit', 'lit/*'], outfile: join(out, 'index.js') });
await build({ ...common, define, entryPoints: [join(root, 'libs/elements/src/classic.ts')], format: 'iife', outfile: join(out, 'elements.js') });
// The offer code field, outside the budget: only pages running offers load it.
await build({ ...common, entryPoints: [join(root, 'libs/elements/src/offers.ts')], format: 'iife', outfile: join(out, 'offers.js') });
// UTF-8 as it is: the five locales' text escaped as \u sequences would be several times the size.
await build({ ...common, charset: 'utf8', entryPoints: [join(root, 'libs/elements/src/account-classic.ts')], format: 'iife', outfile: join(out, 'account.js') });
// The gift purchase, built on elements.js as account.js is: only a page selling gifts loads it.
await build({ ...common, charset: 'utf8', entryPoints: [join(root, 'libs/elements/src/gift-classic.ts')], format: 'iife', outfile: join(out, 'gift.js') });
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

const gift = gzipped(join(out, 'gift.js'));
console.log(`gift.js ${kb(statSync(join(out, 'gift.js')).size)} min, ${kb(gift)} min+gzip of ${kb(GIFT_BUDGET)}`);
if (gift > GIFT_BUDGET) {
  console.error(`elements: gift.js is ${kb(gift)} minified and gzipped, above its ${kb(GIFT_BUDGET)} budget`);
  process.exit(1);
}
