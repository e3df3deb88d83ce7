/** One process's Prometheus exposition, read from its operations port (`HEALTH_PORT`). */
export async function scrape(metricsUrl: string): Promise<string> {
  const res = await fetch(metricsUrl);
  if (!res.ok) throw new Error(`${metricsUrl} answered ${res.status}`);
  return res.text();
}

/** The sum of a series' samples carrying every one of `labels` (a counter summed over its other labels). */
export function sampleSum(exposition: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  let sum = 0;
  for (const line of exposition.split('\n')) {
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!sample || sample[1] !== name) continue;
    const present = (sample[2] ?? '').split(',');
    if (wanted.every((label) => present.includes(label))) sum += Number(sample[3]);
  }
  return sum;
}
