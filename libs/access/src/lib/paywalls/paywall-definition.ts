import type { FieldError, PaywallChanges, PaywallCopy, PaywallDraft, PaywallView } from '@gatehouse/contracts';
import { parsePaywallConfig, storedSettings } from '@gatehouse/contracts/paywall-config';
import { globProblem } from '@gatehouse/access-decisions';
import type { Paywall } from './paywall.entity';

export const DEFAULT_PRIORITY = 100;

/** The stored fields of a paywall, as a draft or a change leaves them. */
export type PaywallDefinition = Pick<
  Paywall,
  'name' | 'type' | 'config' | 'includeGlobs' | 'excludeGlobs' | 'segmentId' | 'priority' | 'enabled' | 'presentation' | 'copy' | 'oneTimePriceIds'
>;

export function definitionOfDraft(draft: PaywallDraft): PaywallDefinition {
  return {
    name: draft.name,
    type: draft.type,
    config: draft.config ?? {},
    includeGlobs: draft.match.include,
    excludeGlobs: draft.match.exclude ?? [],
    segmentId: draft.segmentId ?? null,
    priority: draft.priority ?? DEFAULT_PRIORITY,
    enabled: draft.enabled ?? true,
    presentation: draft.presentation ?? 'modal',
    copy: draft.copy ?? null,
    oneTimePriceIds: draft.oneTimePriceIds ?? [],
  };
}

/** A changed type without a new config starts from an empty one, to be completed for the new type. */
export function definitionWithChanges(current: PaywallDefinition, changes: PaywallChanges): PaywallDefinition {
  const typeChanged = changes.type !== undefined && changes.type !== current.type;
  return {
    name: changes.name ?? current.name,
    type: changes.type ?? current.type,
    config: changes.config ?? (typeChanged ? {} : current.config),
    includeGlobs: changes.match?.include ?? current.includeGlobs,
    excludeGlobs: changes.match ? (changes.match.exclude ?? []) : current.excludeGlobs,
    segmentId: changes.segmentId === undefined ? current.segmentId : changes.segmentId,
    priority: changes.priority ?? current.priority,
    enabled: changes.enabled ?? current.enabled,
    presentation: changes.presentation ?? current.presentation,
    copy: changes.copy === undefined ? current.copy : changes.copy,
    oneTimePriceIds: changes.oneTimePriceIds ?? current.oneTimePriceIds,
  };
}

/** The definition with its config normalised for its type, and every field at fault. */
export function checkDefinition(definition: PaywallDefinition): { definition: PaywallDefinition; errors: FieldError[] } {
  const { config, errors } = parsePaywallConfig(definition.type, definition.config);
  const globErrors = (globs: string[], field: string): FieldError[] =>
    globs.flatMap((glob, i) => {
      const problem = globProblem(glob);
      return problem ? [{ field: `${field}[${i}]`, message: problem }] : [];
    });
  errors.push(...globErrors(definition.includeGlobs, 'match.include'), ...globErrors(definition.excludeGlobs, 'match.exclude'));
  return { definition: { ...definition, config, copy: compactCopy(definition.copy), oneTimePriceIds: [...new Set(definition.oneTimePriceIds)] }, errors };
}

/** Copy without its unset fields; null when nothing is left. */
function compactCopy(copy: PaywallCopy | null): PaywallCopy | null {
  if (!copy) return null;
  const set = Object.entries(copy).filter(([, value]) => value !== undefined && value !== null);
  return set.length > 0 ? Object.fromEntries(set) : null;
}

export function paywallView(paywall: Paywall): PaywallView {
  return {
    id: paywall.id,
    name: paywall.name,
    ...storedSettings(paywall.type, paywall.config),
    match: { include: paywall.includeGlobs, exclude: paywall.excludeGlobs },
    segmentId: paywall.segmentId,
    priority: paywall.priority,
    enabled: paywall.enabled,
    presentation: paywall.presentation,
    copy: paywall.copy,
    oneTimePriceIds: paywall.oneTimePriceIds,
    createdAt: paywall.createdAt.toISOString(),
    updatedAt: paywall.updatedAt.toISOString(),
  };
}
