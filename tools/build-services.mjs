// `npm run build:services`: compiles the services and the libs they use to plain JavaScript in
// dist/services (CommonJS, decorator metadata for NestJS, @gatehouse/* imports made relative),
// so containers run `node dist/services/apps/<service>/src/main.js` with no compiler at run time.
// Tests, the e2e app, the all-in-one start and the test and web libs are left out.
import { transformFileSync } from '@swc/core';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const OUT = join(ROOT, 'dist/services');
const SKIP_PROJECTS = new Set(['apps/e2e', 'apps/local', 'apps/dashboard', 'libs/testing', 'libs/sdk', 'libs/elements']);

const sources = [];
for (const top of ['apps', 'libs']) {
  for (const project of readdirSync(join(ROOT, top))) {
    const src = join(ROOT, top, project, 'src');
    if (SKIP_PROJECTS.has(`${top}/${project}`) || !statSync(join(ROOT, top, project)).isDirectory()) continue;
    try {
      statSync(src);
    } catch {
      continue;
    }
    for (const entry of readdirSync(src, { recursive: true })) {
      const file = join(src, String(entry));
      if (file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.endsWith('.d.ts') && !file.includes('/__tests__/')) sources.push(file);
    }
  }
}

rmSync(OUT, { recursive: true, force: true });
for (const file of sources) {
  const target = join(OUT, relative(ROOT, file)).replace(/\.ts$/, '.js');
  const { code } = transformFileSync(file, {
    swcrc: false,
    sourceMaps: false,
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  });
  // `@gatehouse/<lib>` is the lib's index; `@gatehouse/<lib>/<entry>` a second entry point beside it (src/<entry>.ts).
  const fromHere = (lib, entry = 'index') => {
    const path = relative(dirname(target), join(OUT, 'libs', lib, `src/${entry}.js`));
    return path.startsWith('.') ? path : `./${path}`;
  };
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, code.replace(/require\("@gatehouse\/([a-z-]+)(?:\/([a-z-]+))?"\)/g, (_, lib, entry) => `require(${JSON.stringify(fromHere(lib, entry))})`));
}
console.log(`Compiled ${sources.length} files to ${relative(ROOT, OUT)}`);
