import type { MeterPeriod } from '@gatehouse/contracts';

export interface CalendarPeriod {
  start: Date;
  /** Exclusive: the start of the next period, which is when the meter resets. */
  end: Date;
}

const DAY_MS = 24 * 3600 * 1000;

/** The calendar period in UTC that `now` falls in: a day, a week starting on Monday, or a month (decisions E5). */
export function calendarPeriod(now: Date, period: MeterPeriod): CalendarPeriod {
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
