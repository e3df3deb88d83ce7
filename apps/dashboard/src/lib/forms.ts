import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from '../api/client';

/**
 * Puts the problem's field errors next to their fields (`conditions[1].value` on that row's value,
 * `domains[1]` on `domains`) and answers whether any did; the caller shows the `detail` otherwise.
 */
export function showFieldErrors<T extends FieldValues>(form: UseFormReturn<T, any, any>, error: unknown): boolean {
  if (!(error instanceof ApiError) || !error.problem.errors) return false;
  const known = Object.keys(form.getValues());
  let shown = false;
  for (const { field, message } of error.problem.errors) {
    const root = field.split(/[.[]/)[0];
    const path = field.replace(/\[(\d+)\]/g, '.$1');
    const name = Array.isArray(form.getValues()[root]) && typeof form.getValues()[root][0] === 'object' ? path : root;
    if (known.includes(root)) {
      form.setError(name as Path<T>, { message }, { shouldFocus: !shown });
      shown = true;
    }
  }
  return shown;
}

export function hasFieldErrors(error: unknown): boolean {
  return error instanceof ApiError && (error.problem.errors?.length ?? 0) > 0;
}
