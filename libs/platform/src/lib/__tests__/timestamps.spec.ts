import { parseTimestamp } from '../timestamps';

describe('timestamps', () => {
  it('reads dates and date-times with an offset', () => {
    expect(parseTimestamp('2026-01-31')?.toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(parseTimestamp('2026-01-31T12:30:00Z')?.toISOString()).toBe('2026-01-31T12:30:00.000Z');
    expect(parseTimestamp('2026-01-31T12:30:00.123456+02:00')?.toISOString()).toBe('2026-01-31T10:30:00.123Z');
    expect(parseTimestamp('2024-02-29T00:00Z')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it.each(['2020-02-30T00:00:00Z', '2023-02-29', '2020-W01', '2020-001', '1', '', '2020-13-01', '2020-01-01T24:00:00Z', '2020-01-01T10:00:00', '2020-01-01T10:00:00+25:00', 'x'.repeat(50)])(
    'refuses %s',
    (text) => {
      expect(parseTimestamp(text)).toBeUndefined();
    },
  );

  it('refuses what is not a string', () => {
    for (const value of [null, 1, {}, []]) expect(parseTimestamp(value)).toBeUndefined();
  });
});
