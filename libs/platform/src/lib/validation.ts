import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ValidateIf } from 'class-validator';
import type { FieldError } from '@gatehouse/contracts';
import { AppError } from './problem';

/** Flattens nested class-validator errors into `{field: "a.b[0].c", message}` pairs. */
export function fieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? (/^\d+$/.test(e.property) ? `${parent}[${e.property}]` : `${parent}.${e.property}`) : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...fieldErrors(e.children ?? [], field)];
  });
}

const quickChecks = new WeakMap<object, (value: unknown) => boolean>();

/**
 * A hot route's way past class-validator and class-transformer (decorators walked, an instance
 * built, per request): `accepts` answers true only for a value that passes every rule of the
 * class, and such a value goes through as sent. Anything it does not accept is validated by
 * class-validator as usual, so every refusal and its field errors stay class-validator's own.
 * Its parity with the class's rules is tested where it is declared.
 */
export function QuickCheck(accepts: (value: unknown) => boolean): ClassDecorator {
  return (target) => void quickChecks.set(target, accepts);
}

/** The quick check a class declared with `@QuickCheck`, for its parity test. */
export function quickCheckOf(target: object): ((value: unknown) => boolean) | undefined {
  return quickChecks.get(target);
}

/** A plain object (not null, not an array) holding no key but `allowed` ones. */
export function hasOnlyKeys(value: unknown, allowed: ReadonlySet<string>): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** For quick checks: an optional field is absent, or present and passing `rule`. */
export function absentOr(value: unknown, rule: (present: unknown) => boolean): boolean {
  return value === undefined || rule(value);
}

class QuickValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const accepts = metadata.metatype && quickChecks.get(metadata.metatype);
    return accepts && accepts(value) ? Promise.resolve(value) : super.transform(value, metadata);
  }
}

/** Unknown fields, wrong types and missing fields all answer 400 `validation_failed` naming the field. */
export function createValidationPipe(): ValidationPipe {
  return new QuickValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => new AppError('validation_failed', 'The request is invalid.', fieldErrors(errors)),
  });
}

/**
 * A field that may be left out but, unlike with `@IsOptional()`, not sent as null: null then
 * fails the field's other rules (400) instead of reaching a service that cannot store it.
 */
export function IsOmittable(): PropertyDecorator {
  return ValidateIf((_, value) => value !== undefined);
}
