import { ValidationPipe, type ValidationError } from '@nestjs/common';
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

/** Unknown fields, wrong types and missing fields all answer 400 `validation_failed` naming the field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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
