/**
 * The processor stamps its events in whole seconds. A state read from it now is stamped with the
 * current second, so that an event of that same second counts as "as recent": neither older
 * (ignored) nor newer (applied blindly), but in doubt, and checked against the processor again.
 */
export function wholeSecond(time: Date): Date {
  return new Date(Math.floor(time.getTime() / 1000) * 1000);
}
