/** The fields of a partial change that were given: `undefined` means "leave as is", never "clear". */
export function definedOnly<T extends object>(change: T): Partial<T> {
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as Partial<T>;
}
