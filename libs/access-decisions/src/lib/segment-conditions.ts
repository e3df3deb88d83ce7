import {
  COUNTRY_CODE,
  SEGMENT_ATTRIBUTES,
  type FieldError,
  type SegmentAttribute,
  type SegmentCondition,
  type SegmentOperator,
  type SegmentValue,
} from '@gatehouse/contracts';

/** What is known of the visitor of one access check, by segment attribute (decisions E7). */
export interface VisitorFacts {
  authenticated: boolean;
  subscriber: boolean;
  /** Undefined away from a page (an offer looked up without one). */
  path?: string;
  referrer?: string;
  device?: string;
  country?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
  visit_count?: number;
}

type Kind = 'boolean' | 'number' | 'string';

const KIND_OF: Record<SegmentAttribute, Kind> = {
  authenticated: 'boolean',
  subscriber: 'boolean',
  visit_count: 'number',
  referrer: 'string',
  device: 'string',
  country: 'string',
  utm_source: 'string',
  utm_medium: 'string',
  utm_campaign: 'string',
  path: 'string',
};

const OPERATORS_OF: Record<Kind, readonly SegmentOperator[]> = {
  boolean: ['eq', 'neq'],
  number: ['eq', 'neq', 'in', 'gt', 'lt'],
  string: ['eq', 'neq', 'contains', 'in'],
};

/** Values some string attributes can take at all, so a condition that could never hold is refused. */
const VALUE_RULES: Partial<Record<SegmentAttribute, { test: (value: string) => boolean; message: string }>> = {
  device: { test: (value) => ['desktop', 'mobile', 'tablet'].includes(value.toLowerCase()), message: 'must be desktop, mobile or tablet' },
  country: { test: (value) => COUNTRY_CODE.test(value), message: 'must be an ISO 3166 alpha-2 country code' },
};

export const MAX_CONDITION_LIST = 100;
const MAX_STRING_VALUE = 500;

/** Why each condition could not be evaluated as written, naming `conditions[i].operator` or `.value`. */
export function conditionProblems(conditions: readonly SegmentCondition[], field = 'conditions'): FieldError[] {
  return conditions.flatMap((condition, i) => problemsOf(condition, `${field}[${i}]`));
}

function problemsOf({ attribute, operator, value }: SegmentCondition, at: string): FieldError[] {
  if (!SEGMENT_ATTRIBUTES.includes(attribute)) return [{ field: `${at}.attribute`, message: `must be one of ${SEGMENT_ATTRIBUTES.join(', ')}` }];
  const kind = KIND_OF[attribute];
  if (!OPERATORS_OF[kind].includes(operator)) {
    return [{ field: `${at}.operator`, message: `${attribute} takes ${OPERATORS_OF[kind].join(', ')}` }];
  }
  if (operator === 'in') {
    const listed = Array.isArray(value) && value.length >= 1 && value.length <= MAX_CONDITION_LIST;
    if (!listed) return [{ field: `${at}.value`, message: `must be a list of 1 to ${MAX_CONDITION_LIST} values` }];
    const problem = (value as unknown[]).map((item) => valueProblem(attribute, kind, item)).find((p) => p !== null);
    return problem ? [{ field: `${at}.value`, message: `each ${problem}` }] : [];
  }
  const problem = valueProblem(attribute, kind, value);
  return problem ? [{ field: `${at}.value`, message: problem }] : [];
}

function valueProblem(attribute: SegmentAttribute, kind: Kind, value: unknown): string | null {
  if (kind === 'boolean') return typeof value === 'boolean' ? null : 'must be true or false';
  if (kind === 'number') return Number.isFinite(value) ? null : 'must be a number';
  if (typeof value !== 'string' || value.length < 1 || value.length > MAX_STRING_VALUE) return `must be a string of 1 to ${MAX_STRING_VALUE} characters`;
  const rule = VALUE_RULES[attribute];
  return rule && !rule.test(value) ? rule.message : null;
}

/** `all`: every condition holds; `any`: at least one does. */
export function segmentMatches(segment: { match: 'all' | 'any'; conditions: readonly SegmentCondition[] }, facts: VisitorFacts): boolean {
  const holds = (condition: SegmentCondition) => conditionHolds(condition, facts);
  return segment.match === 'all' ? segment.conditions.every(holds) : segment.conditions.some(holds);
}

/**
 * Strings compare without regard to letter case. An attribute the check does not know (no
 * referrer, say) satisfies only `neq`.
 */
export function conditionHolds({ attribute, operator, value }: SegmentCondition, facts: VisitorFacts): boolean {
  const fact = facts[attribute];
  if (fact === undefined) return operator === 'neq';
  const same = (expected: SegmentValue) => comparable(fact) === comparable(expected);
  switch (operator) {
    case 'eq':
      return same(value);
    case 'neq':
      return !same(value);
    case 'in':
      return Array.isArray(value) && value.some(same);
    case 'contains':
      return typeof fact === 'string' && typeof value === 'string' && fact.toLowerCase().includes(value.toLowerCase());
    case 'gt':
      return typeof fact === 'number' && typeof value === 'number' && fact > value;
    case 'lt':
      return typeof fact === 'number' && typeof value === 'number' && fact < value;
  }
}

function comparable(value: unknown): unknown {
  return typeof value === 'string' ? value.toLowerCase() : value;
}

export function usesAttribute(segment: { conditions: readonly SegmentCondition[] }, attribute: SegmentAttribute): boolean {
  return segment.conditions.some((condition) => condition.attribute === attribute);
}
