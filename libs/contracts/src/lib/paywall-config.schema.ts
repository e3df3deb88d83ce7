import { z } from 'zod';
import { DATA_FIELD_TYPES, METER_PERIODS, type NoSettings, type PaywallConfigs, type PaywallSettings, type PaywallType } from './access';
import type { FieldError } from './problems';

export const MAX_METER_LIMIT = 10_000;
export const MAX_DATA_FIELDS = 20;

const meteredConfig = z.strictObject({
  limit: z.int({ error: `must be a whole number from 1 to ${MAX_METER_LIMIT}` }).min(1).max(MAX_METER_LIMIT),
  period: z.enum(METER_PERIODS, { error: `must be one of ${METER_PERIODS.join(', ')}` }),
});

const registrationConfig = z.strictObject({
  requireVerifiedEmail: z.boolean({ error: 'must be true or false' }).optional(),
});

const dataField = z.strictObject(
  {
    name: z.string({ error: 'must be 1 to 64 letters, digits or _, starting with a letter' }).regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/),
    label: z.string({ error: 'must be 1 to 200 characters' }).refine((label) => label.trim().length >= 1 && label.length <= 200, 'must be 1 to 200 characters'),
    type: z.enum(DATA_FIELD_TYPES, { error: `must be one of ${DATA_FIELD_TYPES.join(', ')}` }),
    required: z.boolean({ error: 'must be true or false' }).default(false),
  },
  { error: 'must be an object {name, label, type, required}' },
);

const dataConfig = z.strictObject({
  fields: z
    .array(dataField, { error: `must be a list of 1 to ${MAX_DATA_FIELDS} fields` })
    .min(1)
    .max(MAX_DATA_FIELDS)
    .check(
      z.superRefine(
        (fields, context) => {
          const seen = new Set<unknown>();
          (fields as unknown[]).forEach((field, i) => {
            const name = typeof field === 'object' && field !== null ? (field as { name?: unknown }).name : undefined;
            if (typeof name !== 'string') return;
            if (seen.has(name)) context.addIssue({ code: 'custom', path: [i, 'name'], message: 'is used by another field', input: name });
            seen.add(name);
          });
        },
        // Also when other fields are at fault, so every problem is named at once.
        { when: (payload) => Array.isArray(payload.value) },
      ),
    ),
});

const noSettings = z.strictObject({}) as unknown as z.ZodType<NoSettings>;

/**
 * The one schema of each paywall type's settings (decisions E5), used by the access service to
 * check every write, by the gateway to document them, and by the dashboard's paywall editor.
 */
export const PAYWALL_CONFIG_SCHEMAS: { [T in PaywallType]: z.ZodType<PaywallConfigs[T], unknown> } = {
  hard: noSettings,
  soft: noSettings,
  newsletter: noSettings,
  metered: meteredConfig,
  registration: registrationConfig,
  data: dataConfig,
};

/**
 * `raw` checked as the settings of a `type` paywall, normalised (defaults filled in); or every
 * field at fault, named under `field` (`config.limit`, `config.fields[0].name`).
 */
export function parsePaywallConfig<T extends PaywallType>(type: T, raw: unknown, field = 'config'): { config: PaywallConfigs[T]; errors: FieldError[] } {
  const parsed = PAYWALL_CONFIG_SCHEMAS[type].safeParse(raw);
  if (parsed.success) return { config: parsed.data, errors: [] };
  // In the order of the fields, whichever check found them.
  const issues = [...parsed.error.issues].sort((a, b) => comparePaths(a.path, b.path));
  const errors = issues.flatMap((issue): FieldError[] => {
    const at = `${field}${issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('')}`;
    if (issue.path.length === 0 && issue.code === 'invalid_type') return [{ field, message: 'must be an object' }];
    if (issue.code !== 'unrecognized_keys') return [{ field: at, message: issue.message }];
    const unknown = issue.path.length === 0 ? `is not a setting of ${type} paywalls` : 'is not a property of a data field';
    return issue.keys.map((key) => ({ field: `${at}.${key}`, message: unknown }));
  });
  return { config: {} as PaywallConfigs[T], errors };
}

function comparePaths(a: readonly PropertyKey[], b: readonly PropertyKey[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    return typeof a[i] === 'number' && typeof b[i] === 'number' ? (a[i] as number) - (b[i] as number) : 0;
  }
  return a.length - b.length;
}

/** Settings read back from storage, which were checked when written. */
export function storedSettings(type: PaywallType, config: unknown): PaywallSettings {
  return { type, config } as PaywallSettings;
}

/** Each type's settings as OpenAPI 3.0 schemas, for the API document. */
export function paywallConfigOpenApi(): Record<PaywallType, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(PAYWALL_CONFIG_SCHEMAS).map(([type, schema]) => [type, z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input' }) as Record<string, unknown>]),
  ) as Record<PaywallType, Record<string, unknown>>;
}
