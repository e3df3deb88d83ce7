import type { TrackEvent } from '@gatehouse/contracts';
import { backoffDelay } from '../backoff';
import { GatehouseError } from '../errors';
import { EventQueue } from '../event-queue';

/** Timers a test moves by hand. */
class ManualTimers {
  now = 0;
  private pending: Array<{ at: number; callback: () => void; id: number }> = [];
  private serial = 0;
  setTimeout = (callback: () => void, ms: number) => {
    this.serial += 1;
    this.pending.push({ at: this.now + ms, callback, id: this.serial });
    return this.serial;
  };
  clearTimeout = (id: unknown) => {
    this.pending = this.pending.filter((timer) => timer.id !== id);
  };
  get next(): number | undefined {
    return this.pending.length ? Math.min(...this.pending.map((t) => t.at)) - this.now : undefined;
  }
  async advance(ms: number): Promise<void> {
    this.now += ms;
    for (const timer of this.pending.filter((t) => t.at <= this.now)) {
      this.clearTimeout(timer.id);
      timer.callback();
    }
    await settle();
  }
}

const settle = () => new Promise((done) => setTimeout(done, 0));
const event = (n: number): TrackEvent => ({ type: 'page_view', url: `https://news.example/${n}` });
const down = () => new GatehouseError('service_unavailable', 0, 'unreachable');

function queue(answers: Array<() => unknown> = []) {
  const timers = new ManualTimers();
  const sent: Array<{ urls: string[]; keepalive: boolean; exiting: boolean }> = [];
  const warnings: string[] = [];
  const events = new EventQueue({
    timers,
    warn: (message) => warnings.push(message),
    backoff: { baseMs: 1000, maxMs: 60_000, random: () => 1 },
    send: async (batch, keepalive, exiting) => {
      sent.push({ urls: batch.map((e) => e.url), keepalive, exiting });
      const answer = answers.shift();
      if (answer) answer();
    },
  });
  return { events, timers, sent, warnings };
}

describe('EventQueue', () => {
  it('sends nothing at once, then everything queued in one batch after a few seconds', async () => {
    const { events, timers, sent } = queue();
    events.push(event(1));
    events.push(event(2));
    await settle();
    expect(sent).toEqual([]);
    await timers.advance(3000);
    expect(sent).toEqual([{ urls: ['https://news.example/1', 'https://news.example/2'], keepalive: true, exiting: false }]);
    expect(events.size).toBe(0);
  });

  it('sends a full batch of 50 at once, and never more than 50 in one request', async () => {
    const { events, timers, sent } = queue();
    for (let n = 0; n < 120; n++) events.push(event(n));
    await settle();
    await timers.advance(3000);
    expect(sent.map((s) => s.urls.length)).toEqual([50, 50, 20]);
    expect(sent.flatMap((s) => s.urls)).toEqual(Array.from({ length: 120 }, (_, n) => `https://news.example/${n}`));
  });

  it('keeps each request under the API’s body limit: large events go in smaller batches', async () => {
    const timers = new ManualTimers();
    const bodies: number[] = [];
    const counts: number[] = [];
    const events = new EventQueue({
      timers,
      warn: () => undefined,
      send: async (batch) => {
        bodies.push(JSON.stringify({ events: batch }).length);
        counts.push(batch.length);
      },
    });
    for (let n = 0; n < 50; n++) events.push({ ...event(n), data: { note: 'x'.repeat(4000) } });
    await settle();
    await timers.advance(3000);
    expect(counts.length).toBeGreaterThan(1);
    expect(counts.reduce((a, b) => a + b)).toBe(50);
    for (const bytes of bodies) expect(bytes).toBeLessThan(100 * 1024);
  });

  it('retries with growing delays while the service is unreachable or failing, then delivers everything once', async () => {
    const failing = () => {
      throw down();
    };
    const serverError = () => {
      throw new GatehouseError('service_unavailable', 503, 'busy');
    };
    const { events, timers, sent } = queue([failing, serverError, failing]);
    events.push(event(1));
    await timers.advance(3000);
    expect(timers.next).toBe(1000);
    await timers.advance(1000);
    expect(timers.next).toBe(2000);
    await timers.advance(2000);
    expect(timers.next).toBe(4000);
    events.push(event(2)); // waits for the retry, which takes it along
    await timers.advance(4000);
    expect(sent.map((s) => s.urls)).toEqual([
      ['https://news.example/1'],
      ['https://news.example/1'],
      ['https://news.example/1'],
      ['https://news.example/1', 'https://news.example/2'],
    ]);
    expect(events.size).toBe(0);
    expect(timers.next).toBeUndefined();
  });

  it('waits as long as a 429 says before trying again', async () => {
    const limited = () => {
      const error = new GatehouseError('rate_limited', 429, 'slow down');
      error.retryAfterMs = 30_000;
      throw error;
    };
    const { events, timers, sent } = queue([limited]);
    events.push(event(1));
    await timers.advance(3000);
    expect(timers.next).toBe(30_000);
    await timers.advance(30_000);
    expect(sent).toHaveLength(2);
    expect(events.size).toBe(0);
  });

  it('drops a batch the service refuses (4xx) with a warning, and goes on with the next', async () => {
    const refused = () => {
      throw new GatehouseError('validation_failed', 400, 'bad event');
    };
    const { events, timers, sent, warnings } = queue([refused]);
    for (let n = 0; n < 60; n++) events.push(event(n));
    await timers.advance(3000);
    expect(sent.map((s) => s.urls.length)).toEqual([50, 10]);
    expect(events.size).toBe(0);
    expect(warnings).toEqual(['Gatehouse: 50 event(s) refused and dropped.']);
    expect(timers.next).toBeUndefined();
  });

  it('as the page closes, sends everything queued at once with keepalive, in batches of 50, without waiting for a backoff', async () => {
    const { events, timers, sent } = queue([
      () => {
        throw down();
      },
    ]);
    events.push(event(0));
    await timers.advance(3000); // fails: a retry is scheduled
    for (let n = 1; n < 61; n++) events.push(event(n));
    events.flushOnExit();
    await settle();
    expect(sent.slice(1).map((s) => [s.urls.length, s.keepalive, s.exiting])).toEqual([
      [50, true, true],
      [11, true, true],
    ]);
    expect(sent.slice(1).flatMap((s) => s.urls)).toEqual(Array.from({ length: 61 }, (_, n) => `https://news.example/${n}`));
    expect(timers.next).toBeUndefined();
  });

  it('does not send a batch already in flight a second time as the page closes', async () => {
    let answer!: () => void;
    const timers = new ManualTimers();
    const sent: string[][] = [];
    const events = new EventQueue({
      timers,
      warn: () => undefined,
      send: (batch) => {
        sent.push(batch.map((e) => e.url));
        return new Promise<void>((done) => (answer = done));
      },
    });
    events.push(event(1));
    await timers.advance(3000);
    events.push(event(2));
    events.flushOnExit();
    answer();
    await settle();
    expect(sent).toEqual([['https://news.example/1'], ['https://news.example/2']]);
  });

  it('keeps at most 500 events while the service is away, dropping the oldest with a warning', async () => {
    const failing = () => {
      throw down();
    };
    const { events, timers, sent, warnings } = queue(Array.from({ length: 20 }, () => failing));
    for (let n = 0; n < 600; n++) events.push(event(n));
    await settle();
    expect(events.size).toBe(500);
    expect(warnings[0]).toMatch(/oldest were dropped/);
    await timers.advance(60_000);
    expect(sent[sent.length - 1].urls[0]).toBe('https://news.example/100');
  });
});

describe('backoffDelay', () => {
  it('doubles from the base up to the cap, jittered between half and all of it', () => {
    const top = { baseMs: 1000, maxMs: 60_000, random: () => 0.9999 };
    expect([1, 2, 3, 4, 7, 8, 20].map((n) => backoffDelay(n, top))).toEqual([1000, 2000, 4000, 8000, 60_000, 60_000, 60_000].map((ms) => Math.round(ms / 2 + (ms / 2) * 0.9999)));
    const bottom = { baseMs: 1000, maxMs: 60_000, random: () => 0 };
    expect([1, 2, 3].map((n) => backoffDelay(n, bottom))).toEqual([500, 1000, 2000]);
  });
});
