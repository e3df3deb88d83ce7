import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  /** Microseconds of the monotonic clock `process.hrtime` reads. */
  startTime: number;
}

/** A stretch of load on one system: its first and last microsecond (`process.hrtime`'s clock) and the requests answered in it. */
export interface LoadWindow {
  fromUs: number;
  toUs: number;
  answered: number;
}

/**
 * The CPU time of the profiled process (one profile in `dir`) while it was under load, by package
 * (or our own lib, or the engine), in microseconds per answered request: what one request costs
 * each layer, background work of those moments included, idle time excluded.
 */
export function costPerRequest(dir: string, windows: readonly LoadWindow[]): Map<string, number> {
  const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`${dir} holds no CPU profile`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const answered = windows.reduce((sum, window) => sum + window.answered, 0);
  const byPlace = new Map<string, number>();
  let time = profile.startTime;
  profile.samples.forEach((id, i) => {
    // Each sample stands for the time until the next one.
    const at = (time += profile.timeDeltas[i] ?? 0);
    const micros = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)' || !windows.some((window) => at >= window.fromUs && at < window.toUs)) return;
    const place = placeOf(node.callFrame.url, node.callFrame.functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + micros / answered);
  });
  return byPlace;
}

/** Where the sampled time went: by package (or our own code, or the engine) and the functions that took most themselves. */
export function summariseProfiles(dir: string, top = 25): string {
  const files = readdirSync(dir).filter((file) => file.endsWith('.cpuprofile'));
  const selfByFunction = new Map<string, number>();
  const selfByPlace = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((id, i) => {
      const node = byId.get(id);
      if (!node) return;
      const micros = profile.timeDeltas[i] ?? 0;
      total += micros;
      const { functionName, url, lineNumber } = node.callFrame;
      const place = placeOf(url, functionName);
      const name = `${functionName || '(anonymous)'} ${url ? `${shorten(url)}:${lineNumber + 1}` : ''}`.trim();
      selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + micros);
      selfByPlace.set(place, (selfByPlace.get(place) ?? 0) + micros);
    });
  }
  const share = (micros: number) => `${((micros / total) * 100).toFixed(1)} %`;
  const rows = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, micros]) => `| ${name.replace(/\|/g, '\\|')} | ${share(micros)} |`);
  return [
    `CPU profile of npm start over the runs (${(total / 1e6).toFixed(1)} s sampled):`,
    '',
    '| where | self time |',
    '|---|---|',
    ...rows(selfByPlace, 15),
    '',
    '| function | self time |',
    '|---|---|',
    ...rows(selfByFunction, top),
  ].join('\n');
}

function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(node internals / native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return 'node core';
  const own = /\/(libs|apps|tools)\/([^/]+)\//.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

function shorten(url: string): string {
  return url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '').replace(/^.*\/(libs|apps|tools)\//, '$1/');
}
