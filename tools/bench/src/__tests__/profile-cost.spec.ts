import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { costPerRequest } from '../lib/profile';

/**
 * `bench:compare --profile`: the CPU a system spent while under its own rounds, per request it
 * answered in them, by package. A profile written by hand: which samples count is the point.
 */
describe('the CPU cost per answered request of a profiled system', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'profile-cost-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const frame = (id: number, functionName: string, url: string) => ({ id, callFrame: { functionName, url, lineNumber: 0 } });

  it('counts the samples inside the load windows only, leaves idle time out and divides by the requests answered', () => {
    writeFileSync(
      join(dir, 'CPU.1.cpuprofile'),
      JSON.stringify({
        startTime: 1_000,
        nodes: [frame(1, '(root)', ''), frame(2, 'check', 'file:///repo/libs/gateway/src/lib/a.ts'), frame(3, 'get', 'file:///repo/node_modules/lru-cache/index.js'), frame(4, '(idle)', '')],
        // Sample times 1,100 .. 1,600 (each stands for the 100 µs until the next one).
        samples: [2, 3, 4, 2, 3, 2, 2],
        timeDeltas: [100, 100, 100, 100, 100, 100, 100],
      }),
    );
    // The first window holds the samples at 1,100 (gateway), 1,200 (lru-cache) and 1,300 (idle); the second the one at 1,500 (lru-cache).
    const cost = costPerRequest(dir, [
      { fromUs: 1_100, toUs: 1_301, answered: 2 },
      { fromUs: 1_500, toUs: 1_550, answered: 2 },
    ]);
    expect(Object.fromEntries(cost)).toEqual({ 'libs/gateway': 25, 'lru-cache': 50 });
  });

  it('says so when the directory holds no profile', () => {
    expect(() => costPerRequest(dir, [])).toThrow('holds no CPU profile');
  });
});
