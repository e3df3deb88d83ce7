import { Injectable } from '@nestjs/common';
import { ReadModels, type ReadModel } from '@gatehouse/bus';
import { promises as dns } from 'node:dns';
import { inRange, type SearchEngine } from '@gatehouse/access-decisions';

const DNS_TIMEOUT_MS = 1_000;
/** How the address was judged: a DNS round trip, the shipped ranges, or neither. */
export type Verification = 'dns' | 'ranges' | 'neither';

/**
 * Verifies that an address belongs to a search engine: reverse DNS must name a host of the engine
 * and that host must resolve back to the address; where DNS gives no answer, the engine's published
 * ranges decide. Answers are cached for an hour per engine and address.
 */
@Injectable()
export class CrawlerVerification {
  private readonly verified: ReadModel<{ engine: SearchEngine; ip: string }, Verification>;

  constructor(readModels: ReadModels) {
    this.verified = readModels.define({
      name: 'crawler-addresses',
      keyOf: ({ engine, ip }) => `${engine.name}|${ip}`,
      load: async ({ engine, ip }) => ((await this.byDns(engine, ip)) ? 'dns' : engine.ranges.some((range) => inRange(ip, range)) ? 'ranges' : 'neither'),
      max: 10_000,
      freshMs: 60 * 60_000,
    });
  }

  /** Whether the address is the engine's; false answers are kept as long as true ones. */
  async verify(engine: SearchEngine, ip: string): Promise<boolean> {
    return (await this.verified.get({ engine, ip })) !== 'neither';
  }

  private async byDns(engine: SearchEngine, ip: string): Promise<boolean> {
    if (engine.hostSuffixes.length === 0) return false;
    try {
      const hosts = await withTimeout(dns.reverse(ip));
      for (const host of hosts.filter((h) => engine.hostSuffixes.some((suffix) => h.toLowerCase().endsWith(suffix)))) {
        // Forward-confirmed in DNS itself, as the engines document (not /etc/hosts through the system resolver).
        const forward = await Promise.all([withTimeout(dns.resolve4(host)).catch(() => []), withTimeout(dns.resolve6(host)).catch(() => [])]);
        if (forward.flat().includes(ip.replace(/^::ffff:/i, ''))) return true;
      }
    } catch {
      // no answer: the ranges decide
    }
    return false;
  }
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('dns timeout')), DNS_TIMEOUT_MS).unref())]);
}
