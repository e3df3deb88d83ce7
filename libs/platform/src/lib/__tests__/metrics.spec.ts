import { Counter, Histogram, Registry } from 'prom-client';
import { HotCounter, HotHistogram, metricsRegistry } from '../metrics';

/** The scrape lines of one metric, with its name replaced so two metrics of different names compare. */
async function linesOf(registry: Registry, name: string): Promise<string> {
  return (await registry.getSingleMetricAsString(name)).replaceAll(name, 'series');
}

describe('series counted on every request', () => {
  it('a hot histogram scrapes exactly as prom-client’s histogram given the same observations', async () => {
    const reference = new Registry();
    const buckets = [0.001, 0.01, 0.1, 1];
    const hot = new HotHistogram({ name: 'test_hot_histogram_seconds', help: 'Latency.', labelNames: ['route_class', 'status'] as const, buckets });
    const theirs = new Histogram({ name: 'test_reference_histogram_seconds', help: 'Latency.', labelNames: ['route_class', 'status'] as const, buckets, registers: [reference] });
    const observations: Array<[Record<'route_class' | 'status', string | number>, number]> = [
      [{ route_class: 'access-check', status: 200 }, 0.0004],
      [{ status: 200, route_class: 'access-check' }, 0.001],
      [{ route_class: 'access-check', status: 200 }, 0.05],
      [{ route_class: 'admin', status: 404 }, 3],
    ];
    for (const [labels, value] of observations) {
      hot.observe(labels, value);
      theirs.observe(labels, value);
    }
    const scraped = await linesOf(metricsRegistry, 'test_hot_histogram_seconds');
    expect(scraped).toBe(await linesOf(reference, 'test_reference_histogram_seconds'));
    expect(scraped).toContain('series_bucket{le="0.001",route_class="access-check",status="200"} 2');
    expect(scraped).toContain('series_count{route_class="admin",status="404"} 1');
  });

  it('a hot counter scrapes as prom-client’s counter, by label set, and starts again when reset', async () => {
    const reference = new Registry();
    const hot = new HotCounter({ name: 'test_hot_total', help: 'Checks.', labelNames: ['decided_by', 'reason'] as const });
    const theirs = new Counter({ name: 'test_reference_total', help: 'Checks.', labelNames: ['decided_by', 'reason'] as const, registers: [reference] });
    for (const [labels, by] of [
      [{ decided_by: 'gateway', reason: 'no_rule' }, 1],
      [{ decided_by: 'access', reason: 'meter' }, 1],
      [{ reason: 'no_rule', decided_by: 'gateway' }, 2],
    ] as const) {
      hot.inc(labels, by);
      theirs.inc(labels, by);
    }
    expect(await linesOf(metricsRegistry, 'test_hot_total')).toBe(await linesOf(reference, 'test_reference_total'));
    expect((await hot.get()).values).toEqual([
      { labels: { decided_by: 'gateway', reason: 'no_rule' }, value: 3 },
      { labels: { decided_by: 'access', reason: 'meter' }, value: 1 },
    ]);
    hot.reset();
    expect((await hot.get()).values).toEqual([]);
  });
});
