import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/** The first load's JavaScript, gzipped, must stay under this (issue #13): the build fails otherwise. */
export const FIRST_LOAD_BUDGET_BYTES = 250 * 1024;

/**
 * A first load fetches the entry chunk with everything it imports statically, plus one screen's
 * lazy chunk and its imports: the heaviest such page must fit the budget.
 */
function firstLoadBudget(): Plugin {
  return {
    name: 'gatehouse-first-load-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])));
      const closure = (fileName: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(fileName)) return seen;
        seen.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) closure(imported, seen);
        return seen;
      };
      const gzipped = (files: Set<string>) => [...files].reduce((sum, fileName) => sum + gzipSync(chunks.get(fileName)?.code ?? '').length, 0);
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
      if (!entry) return;
      const base = closure(entry.fileName);
      const pages = entry.dynamicImports.map((screen) => ({ screen, bytes: gzipped(closure(screen, new Set(base))) }));
      const heaviest = pages.reduce((max, page) => (page.bytes > max.bytes ? page : max), { screen: entry.fileName, bytes: gzipped(base) });
      if (heaviest.bytes > FIRST_LOAD_BUDGET_BYTES) {
        this.error(`first-load JavaScript with ${heaviest.screen} is ${(heaviest.bytes / 1024).toFixed(1)} KiB gzipped, over the ${FIRST_LOAD_BUDGET_BYTES / 1024} KiB budget`);
      }
    },
  };
}

const gateway = process.env['GATEHOUSE_URL'] ?? 'http://localhost:3000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  cacheDir: '../../node_modules/.vite/apps/dashboard',
  plugins: [react(), tailwindcss(), firstLoadBudget()],
  // Contracts' only run-time imports here: the one schema of paywall settings (shared with the access service) and CSV lines (shared with the gateway's exports).
  resolve: {
    alias: {
      '@gatehouse/contracts/paywall-config': fileURLToPath(new URL('../../libs/contracts/src/paywall-config.ts', import.meta.url)),
      '@gatehouse/contracts/csv': fileURLToPath(new URL('../../libs/contracts/src/csv.ts', import.meta.url)),
    },
  },
  // `npx nx serve dashboard`: the API and the SDK come from a running gateway, so the session cookie is first-party.
  server: { port: 4200, host: 'localhost', proxy: { '/api': gateway, '/sdk': gateway } },
  build: {
    outDir: '../../dist/apps/dashboard',
    emptyOutDir: true,
    reportCompressedSize: false,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: their chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'tanstack', test: /node_modules[\\/]@tanstack[\\/]/ },
          ],
        },
      },
    },
  },
});
