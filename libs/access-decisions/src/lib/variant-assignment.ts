import type { PaywallRule, VariantOverrides } from '@gatehouse/contracts';
import { parsePaywallConfig, storedSettings } from '@gatehouse/contracts/paywall-config';
import { createHash } from 'node:crypto';

const POINTS = 2 ** 48;

/**
 * The visitor's variant: a deterministic hash of the experiment id and the visitor, so the same
 * visitor gets the same variant on every check and every replica without anything stored, and
 * each variant gets its weight's share of visitors. Null when no variant has any weight.
 */
export function assignVariant<V extends { weight: number }>(experimentId: string, visitorKey: string, variants: readonly V[]): V | null {
  const total = variants.reduce((sum, variant) => sum + Math.max(variant.weight, 0), 0);
  if (total <= 0) return null;
  const digest = createHash('sha256').update(`${experimentId}\u0000${visitorKey}`).digest();
  let point = (digest.readUIntBE(0, 6) / POINTS) * total;
  for (const variant of variants) {
    const weight = Math.max(variant.weight, 0);
    if (point < weight) return variant;
    point -= weight;
  }
  return variants.filter((variant) => variant.weight > 0).at(-1) ?? null;
}

/**
 * The paywall as the variant shows it: config and copy merged over the paywall's, presentation
 * replaced, the variant's offer code carried. A config override that no longer fits the paywall's type (the paywall changed since)
 * is left out rather than served broken.
 */
export function applyVariant(rule: PaywallRule, overrides: VariantOverrides): PaywallRule {
  const merged = overrides.config ? parsePaywallConfig(rule.type, { ...rule.config, ...overrides.config }) : undefined;
  return {
    ...rule,
    ...(merged && merged.errors.length === 0 ? storedSettings(rule.type, merged.config) : {}),
    presentation: overrides.presentation ?? rule.presentation,
    copy: overrides.copy ? { ...rule.copy, ...overrides.copy } : rule.copy,
    ...(overrides.offerCode ? { offerCode: overrides.offerCode.toUpperCase() } : {}),
  };
}
