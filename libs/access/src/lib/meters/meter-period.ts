import type { MeterPeriod } from '@gatehouse/contracts';

export interface CalendarPeriod {
  readonly start: Date;
  /** Exclusive: the start of the next period, which is when the meter resets. */
  readonly end: Date;
  /** `end` as the meter's `resetsAt` shows it. */
  readonly resetsAt: string;
}

const DAY_MS = 24 * 3600 * 1000;

/** The period of each kind last asked for: every metered check of the period asks for the same one. */
const current: Partial<Record<MeterPeriod, CalendarPeriod>> = {};

/** The calendar period in UTC that `now` falls in: a day, a week starting on Monday, or a month (decisions E5). Not to be changed. */
export function calendarPeriod(now: Date, period: MeterPeriod): CalendarPeriod {
  const last = current[period];
  if (last && last.start <= now && now < last.end) return last;
  const { start, end } = periodAt(now, period);
  return (current[period] = { start, end, resetsAt: end.toISOString() });
}

function periodAt(now: Date, period: MeterPeriod): { start: Date; end: Date } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const day = now.getUTCDate();
  switch (period) {
    case 'day': {
      const start = Date.UTC(year, month, day);
      return { start: new Date(start), end: new Date(start + DAY_MS) };
    }
    case 'week': {
      const daysSinceMonday = (now.getUTCDay() + 6) % 7;
      const start = Date.UTC(year, month, day - daysSinceMonday);
      return { start: new Date(start), end: new Date(start + 7 * DAY_MS) };
    }
    case 'month':
      return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
  }
}
