import type { FieldError } from '@gatehouse/contracts';
import { AppError } from '@gatehouse/platform';

/** 400 validation_failed naming every field at fault; nothing when there is none. */
export function rejectInvalid(errors: FieldError[], detail = 'The request is invalid.'): void {
  if (errors.length > 0) throw new AppError('validation_failed', detail, errors);
}
