import { calendarPeriod } from '../meter-period';

const period = (now: string, kind: 'day' | 'week' | 'month') => {
  const { start, end } = calendarPeriod(new Date(now), kind);
  return [start.toISOString(), end.toISOString()];
};

describe('meter periods (calendar, UTC)', () => {
  it('a day runs from midnight to midnight UTC', () => {
    expect(period('2031-03-14T00:00:00.000Z', 'day')).toEqual(['2031-03-14T00:00:00.000Z', '2031-03-15T00:00:00.000Z']);
    expect(period('2031-03-14T23:59:59.999Z', 'day')).toEqual(['2031-03-14T00:00:00.000Z', '2031-03-15T00:00:00.000Z']);
    expect(period('2031-12-31T12:00:00.000Z', 'day')).toEqual(['2031-12-31T00:00:00.000Z', '2032-01-01T00:00:00.000Z']);
  });

  it('a week starts on Monday', () => {
    // 2031-03-10 is a Monday, 2031-03-16 a Sunday.
    expect(period('2031-03-10T00:00:00.000Z', 'week')).toEqual(['2031-03-10T00:00:00.000Z', '2031-03-17T00:00:00.000Z']);
    expect(period('2031-03-16T23:59:59.999Z', 'week')).toEqual(['2031-03-10T00:00:00.000Z', '2031-03-17T00:00:00.000Z']);
    expect(period('2031-03-17T00:00:00.000Z', 'week')).toEqual(['2031-03-17T00:00:00.000Z', '2031-03-24T00:00:00.000Z']);
    // Across a month and a year end.
    expect(period('2032-01-01T08:00:00.000Z', 'week')).toEqual(['2031-12-29T00:00:00.000Z', '2032-01-05T00:00:00.000Z']);
  });

  it('a month ends with its last day, 28 to 31 days long', () => {
    expect(period('2031-01-31T23:59:59.999Z', 'month')).toEqual(['2031-01-01T00:00:00.000Z', '2031-02-01T00:00:00.000Z']);
    expect(period('2031-02-15T00:00:00.000Z', 'month')).toEqual(['2031-02-01T00:00:00.000Z', '2031-03-01T00:00:00.000Z']);
    expect(period('2031-04-30T10:00:00.000Z', 'month')).toEqual(['2031-04-01T00:00:00.000Z', '2031-05-01T00:00:00.000Z']);
    expect(period('2031-12-31T23:00:00.000Z', 'month')).toEqual(['2031-12-01T00:00:00.000Z', '2032-01-01T00:00:00.000Z']);
  });

  it('knows leap years: February 29th in 2032, not in 2031 or 2100', () => {
    expect(period('2032-02-29T12:00:00.000Z', 'day')).toEqual(['2032-02-29T00:00:00.000Z', '2032-03-01T00:00:00.000Z']);
    expect(period('2032-02-29T12:00:00.000Z', 'month')).toEqual(['2032-02-01T00:00:00.000Z', '2032-03-01T00:00:00.000Z']);
    expect(period('2031-02-28T12:00:00.000Z', 'day')).toEqual(['2031-02-28T00:00:00.000Z', '2031-03-01T00:00:00.000Z']);
    expect(period('2100-02-28T12:00:00.000Z', 'day')).toEqual(['2100-02-28T00:00:00.000Z', '2100-03-01T00:00:00.000Z']);
    expect(period('2000-02-29T12:00:00.000Z', 'week')).toEqual(['2000-02-28T00:00:00.000Z', '2000-03-06T00:00:00.000Z']);
  });

  it('keeps the period of the moment asked, whichever was asked before, with its reset time as shown', () => {
    expect(period('2031-03-15T00:00:00.000Z', 'day')).toEqual(['2031-03-15T00:00:00.000Z', '2031-03-16T00:00:00.000Z']);
    expect(period('2031-03-14T23:59:59.999Z', 'day')).toEqual(['2031-03-14T00:00:00.000Z', '2031-03-15T00:00:00.000Z']);
    expect(period('2031-03-16T00:00:00.000Z', 'day')).toEqual(['2031-03-16T00:00:00.000Z', '2031-03-17T00:00:00.000Z']);
    expect(calendarPeriod(new Date('2031-02-15T00:00:00.000Z'), 'month').resetsAt).toBe('2031-03-01T00:00:00.000Z');
  });
});
