import {
  DATA_FIELD_TYPES,
  METER_PERIODS,
  type DataWallField,
  type FieldError,
  type PaywallConfig,
  type PaywallType,
} from '@gatehouse/contracts';

export const MAX_METER_LIMIT = 10_000;
export const MAX_DATA_FIELDS = 20;
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export interface NormalisedConfig {
  config: PaywallConfig;
  errors: FieldError[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The settings a paywall type takes (decisions E5), checked and normalised: `metered` takes
 * `{limit, period}`, `data` takes `{fields}`, `registration` may take `{requireVerifiedEmail}`,
 * the other types take nothing. Errors name the field
 * under `field` (e.g. `config.limit`).
 */
export function normalisePaywallConfig(type: PaywallType, raw: unknown, field = 'config'): NormalisedConfig {
  if (!isObject(raw)) return { config: {}, errors: [{ field, message: 'must be an object' }] };
  switch (type) {
    case 'metered':
      return meteredConfig(raw, field);
    case 'data':
      return dataConfig(raw, field);
    case 'registration':
      return registrationConfig(raw, field);
    default:
      return { config: {}, errors: unknownKeys(raw, [], field, `is not a setting of ${type} paywalls`) };
  }
}

function meteredConfig(raw: Record<string, unknown>, field: string): NormalisedConfig {
  const errors = unknownKeys(raw, ['limit', 'period'], field, 'is not a setting of metered paywalls');
  const { limit, period } = raw;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_METER_LIMIT) {
    errors.push({ field: `${field}.limit`, message: `must be a whole number from 1 to ${MAX_METER_LIMIT}` });
  }
  if (!METER_PERIODS.includes(period as never)) errors.push({ field: `${field}.period`, message: `must be one of ${METER_PERIODS.join(', ')}` });
  return { config: { limit, period }, errors };
}

function registrationConfig(raw: Record<string, unknown>, field: string): NormalisedConfig {
  const errors = unknownKeys(raw, ['requireVerifiedEmail'], field, 'is not a setting of registration paywalls');
  const { requireVerifiedEmail } = raw;
  if (requireVerifiedEmail === undefined) return { config: {}, errors };
  if (typeof requireVerifiedEmail !== 'boolean') errors.push({ field: `${field}.requireVerifiedEmail`, message: 'must be true or false' });
  return { config: { requireVerifiedEmail }, errors };
}

function dataConfig(raw: Record<string, unknown>, field: string): NormalisedConfig {
  const errors = unknownKeys(raw, ['fields'], field, 'is not a setting of data paywalls');
  const { fields } = raw;
  if (!Array.isArray(fields) || fields.length < 1 || fields.length > MAX_DATA_FIELDS) {
    errors.push({ field: `${field}.fields`, message: `must be a list of 1 to ${MAX_DATA_FIELDS} fields` });
    return { config: {}, errors };
  }
  const seen = new Set<string>();
  const normalised = fields.map((entry, i) => {
    const at = `${field}.fields[${i}]`;
    if (!isObject(entry)) {
      errors.push({ field: at, message: 'must be an object {name, label, type, required}' });
      return undefined;
    }
    errors.push(...unknownKeys(entry, ['name', 'label', 'type', 'required'], at, 'is not a property of a data field'));
    const { name, label, type, required = false } = entry;
    if (typeof name !== 'string' || !FIELD_NAME.test(name)) {
      errors.push({ field: `${at}.name`, message: 'must be 1 to 64 letters, digits or _, starting with a letter' });
    } else if (seen.has(name)) {
      errors.push({ field: `${at}.name`, message: 'is used by another field' });
    } else {
      seen.add(name);
    }
    if (typeof label !== 'string' || label.trim().length < 1 || label.length > 200) {
      errors.push({ field: `${at}.label`, message: 'must be 1 to 200 characters' });
    }
    if (!DATA_FIELD_TYPES.includes(type as never)) errors.push({ field: `${at}.type`, message: `must be one of ${DATA_FIELD_TYPES.join(', ')}` });
    if (typeof required !== 'boolean') errors.push({ field: `${at}.required`, message: 'must be true or false' });
    return { name, label, type, required } as DataWallField;
  });
  return { config: { fields: normalised }, errors };
}

function unknownKeys(raw: Record<string, unknown>, known: string[], field: string, message: string): FieldError[] {
  return Object.keys(raw)
    .filter((key) => !known.includes(key))
    .map((key) => ({ field: `${field}.${key}`, message }));
}

/** The names of the fields a data wall requires. */
export function requiredDataFields(config: PaywallConfig): string[] {
  const fields = (config['fields'] ?? []) as DataWallField[];
  return fields.filter((f) => f.required).map((f) => f.name);
}
