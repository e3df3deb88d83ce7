import type { QueryDeepPartialEntity } from 'typeorm';

/** Values to write: TypeORM's deep-partial type cannot express the free-form objects of jsonb columns. */
export function row<E>(values: Partial<E>): QueryDeepPartialEntity<E> {
  return values as QueryDeepPartialEntity<E>;
}
