/** Decisions H2: lists are cursor paginated, `?limit=&cursor=` → `{items, nextCursor}`. */
export interface PageRequest {
  /** 1 to PAGE_SIZE_MAX; PAGE_SIZE_DEFAULT when absent. */
  limit?: number;
  /** The `nextCursor` of the previous page; one the list did not hand out is 400 validation_failed. */
  cursor?: string;
}

/** One page; `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
