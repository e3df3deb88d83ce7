import type { CrawlerPolicy, DecisionPaywall, DecisionRules, ExperimentVariant, PaywallRule } from '@gatehouse/contracts';
import { GlobSet } from './path-glob';
import { applyVariant } from './variant-assignment';

/** An enabled paywall as a check weighs it, each experiment variant with the rule it shows. */
export interface CandidatePaywall extends Omit<DecisionPaywall, 'experiment'> {
  /** Each variant with the rule it shows, worked out once when the rules are compiled. */
  experiment: { id: string; variants: Array<ExperimentVariant & { rule: PaywallRule }> } | null;
}

/** The publication's access rules as a check weighs them. */
export interface PublicationRules {
  /** The rules as loaded: what access hands the gateway (`AccessRequests.GetDecisionRules`). */
  source: DecisionRules;
  /** Enabled paywalls, lowest priority first, then the oldest. */
  paywalls: CandidatePaywall[];
  crawlerPolicy: CrawlerPolicy;
  /** The paywalls that cover the path (an include glob matches it and no exclude glob does), in order; not to be changed. */
  covering(path: string): readonly CandidatePaywall[];
}

/** The rules compiled once per load, by access and by the gateway alike: variants applied, every glob in one GlobSet. */
export function compileRules(source: DecisionRules): PublicationRules {
  const paywalls = source.paywalls.map(
    (paywall): CandidatePaywall => ({
      ...paywall,
      experiment: paywall.experiment
        ? { id: paywall.experiment.id, variants: paywall.experiment.variants.map((variant) => ({ ...variant, rule: applyVariant(paywall.rule, variant.overrides) })) }
        : null,
    }),
  );
  return { source, paywalls, crawlerPolicy: source.crawlerPolicy, covering: coverageOf(paywalls) };
}

/** Every glob of every paywall in one GlobSet: a path is read once, whatever the number of paywalls. */
function coverageOf(paywalls: CandidatePaywall[]): (path: string) => readonly CandidatePaywall[] {
  const globs: string[] = [];
  const ranges = paywalls.map(({ includeGlobs, excludeGlobs }) => {
    const include = { from: globs.push(...includeGlobs) - includeGlobs.length, to: globs.length };
    const exclude = { from: globs.push(...excludeGlobs) - excludeGlobs.length, to: globs.length };
    return { include, exclude };
  });
  const set = new GlobSet(globs);
  const any = (matched: (glob: number) => boolean, { from, to }: { from: number; to: number }) => {
    for (let glob = from; glob < to; glob++) if (matched(glob)) return true;
    return false;
  };
  // The last path's answer is kept: the gateway reads a page's first paywall before it decides (`decideAtEdge`).
  let last: { path: string; covering: readonly CandidatePaywall[] } | undefined;
  return (path) => {
    if (last?.path === path) return last.covering;
    const matched = set.match(path);
    last = { path, covering: paywalls.filter((_, i) => any(matched, ranges[i].include) && !any(matched, ranges[i].exclude)) };
    return last.covering;
  };
}
