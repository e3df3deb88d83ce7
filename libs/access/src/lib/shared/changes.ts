/** `base` with the fields `changes` sets; an absent or null field leaves the base value. */
export function withChanges<T extends object>(base: T, changes: Partial<T>): T {
  const set = Object.entries(changes).filter(([, value]) => value !== undefined && value !== null);
  return { ...base, ...Object.fromEntries(set) };
}
