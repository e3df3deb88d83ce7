/** Last-seen and last-used times are written at most this often, so busy keys and sessions do not write on every request. */
export const ACTIVITY_RECORD_INTERVAL_MS = 60_000;

export function isActivityStale(lastRecorded: Date | null, now: Date): boolean {
  return lastRecorded === null || now.getTime() - lastRecorded.getTime() >= ACTIVITY_RECORD_INTERVAL_MS;
}
