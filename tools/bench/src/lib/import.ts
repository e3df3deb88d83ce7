import { api, type Fixtures } from './fixtures';
import type { Started } from './processes';

/** The import scenario's name, which `--only` must name for it to run: it is minutes, not seconds. */
export const IMPORT_SCENARIO = 'import';

export interface ImportFigures {
  rows: number;
  fileMiB: number;
  uploadMs: number;
  checkMs: number;
  importMs: number;
  customersCreated: number;
  subscriptionsCreated: number;
  failedRows: number;
  /** Proportional set size of the system before the upload, and the most seen until the import ended. */
  memory: { before: number; peak: number; nodeBefore: number; nodePeak: number };
}

const POLL_MS = 250;

/**
 * A generated file of `rows` readers uploaded through the admin route, checked and imported as
 * staff would: a quarter with a grant until a date, a quarter granted for good, half customers only.
 */
export async function benchImport(system: Started, fixtures: Fixtures, rows: number): Promise<ImportFigures> {
  const end = `${new Date().getUTCFullYear() + 1}-12-31`;
  const lines = ['email,name,product,interval,currency,amount,current_period_end'];
  for (let i = 0; i < rows; i++) {
    const plan = i % 4 === 0 ? `,Digital,month,eur,900,${end}` : i % 4 === 1 ? ',Digital,month,eur,900,' : ',,,,,';
    lines.push(`imported-${i}@bench.example,Imported Reader ${i}${plan}`);
  }
  const file = lines.join('\n') + '\n';
  const headers = { cookie: fixtures.adminCookie };
  const memory = { before: system.rssMiB(), peak: 0, nodeBefore: system.nodeMiB(), nodePeak: 0 };
  const sample = () => {
    memory.peak = Math.max(memory.peak, system.rssMiB());
    memory.nodePeak = Math.max(memory.nodePeak, system.nodeMiB());
  };
  const until = async (id: string, status: string) => {
    for (;;) {
      sample();
      const job = (await api(system.url, `/admin/imports/${id}`, { headers })).body;
      if (job.status === status) return job;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  const started = Date.now();
  const uploaded = (await api(system.url, '/admin/imports', { method: 'POST', raw: file, headers: { ...headers, 'content-type': 'text/csv' } })).body;
  const uploadedAt = Date.now();
  const checked = await until(uploaded.id, 'checked');
  const checkedAt = Date.now();
  await api(system.url, `/admin/imports/${uploaded.id}/run`, { method: 'POST', headers });
  const imported = await until(uploaded.id, 'imported');
  return {
    rows,
    fileMiB: Buffer.byteLength(file) / 1024 / 1024,
    uploadMs: uploadedAt - started,
    checkMs: checkedAt - uploadedAt,
    importMs: Date.now() - checkedAt,
    customersCreated: imported.customers.created,
    subscriptionsCreated: imported.subscriptions.created,
    failedRows: checked.failedRows,
    memory,
  };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function importLines(figures: ImportFigures): string {
  const { memory } = figures;
  return [
    `import of ${fmt(figures.rows)} rows (${fmt(figures.fileMiB, 1)} MiB of CSV): upload ${fmt(figures.uploadMs / 1000, 1)} s, dry run ${fmt(figures.checkMs / 1000, 1)} s, import ${fmt(figures.importMs / 1000, 1)} s (${fmt(figures.rows / (figures.importMs / 1000))} rows/s); ${fmt(figures.customersCreated)} customers and ${fmt(figures.subscriptionsCreated)} subscriptions created, ${fmt(figures.failedRows)} bad rows`,
    `system memory during the import, PSS: ${fmt(memory.before)} MiB before, ${fmt(memory.peak)} MiB at most (Node.js processes: ${fmt(memory.nodeBefore)} and ${fmt(memory.nodePeak)} MiB)`,
  ].join('\n');
}
