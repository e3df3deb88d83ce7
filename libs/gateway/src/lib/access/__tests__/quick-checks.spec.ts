import { createValidationPipe, quickCheckOf } from '@gatehouse/platform';
import { ValidationPipe } from '@nestjs/common';
import { AccessCheckQueryDto } from '../dtos/access-check.dto';
import { TrackEventBatchDto, TrackEventDto } from '../dtos/track-events.dto';

/**
 * The hot routes' quick checks may only ever say yes to what class-validator says yes to: a value
 * they accept skips the decorators. Here every quick "yes" over a corpus of near-misses is
 * checked against the full rules, and the ordinary page view is shown to take the quick path.
 */

/** The full rules alone: the pipe's options without the quick path. */
const fullRules = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true });
const passesFullRules = (metatype: new () => object, value: unknown): Promise<boolean> =>
  fullRules.transform(value, { type: 'body', metatype }).then(
    () => true,
    () => false,
  );

const UUID = '5f0c6a39-8d7e-4a51-9c3b-2f1e0d4c6b7a';
const tricky: unknown[] = [
  undefined,
  null,
  '',
  'x',
  '\uFE0F',
  '😀',
  'a'.repeat(128),
  'a'.repeat(129),
  'a'.repeat(200),
  'a'.repeat(201),
  'https://news.example.com/' + 'p'.repeat(2048 - 25),
  'https://news.example.com/' + 'p'.repeat(2049 - 25),
  0,
  1,
  true,
  [],
  ['a', 'b'],
  {},
  { a: 1 },
  { big: 'b'.repeat(4100) },
  UUID,
  UUID.toUpperCase(),
  UUID.slice(1),
  'DE',
  'de',
  'DEU',
  'desktop',
  'mobile',
  'tablet',
  'phone',
  'page_view',
  'paywall_shown',
  'data_submit',
  'unknown_type',
  '2026-11-01T12:00:00Z',
  '2026-11-01',
  '2026-02-30T12:00:00Z',
  '2026-11-01T25:00:00Z',
  'yesterday',
];

/** Every object that differs from `base` in one field, plus one with an unknown field. */
function nearMisses(base: Record<string, unknown>, fields: string[]): unknown[] {
  const values: unknown[] = [base, { ...base, unexpected: 'x' }, null, [], 'text', 42];
  for (const field of fields) for (const value of tricky) values.push({ ...base, [field]: value });
  return values;
}

async function expectQuickImpliesFull(metatype: new () => object, corpus: unknown[]): Promise<number> {
  const quick = quickCheckOf(metatype) as (value: unknown) => boolean;
  let accepted = 0;
  for (const value of corpus) {
    if (!quick(value)) continue;
    accepted += 1;
    if (!(await passesFullRules(metatype, value))) throw new Error(`the quick check accepted what the rules refuse: ${JSON.stringify(value)}`);
  }
  return accepted;
}

describe('the quick checks of the hot routes', () => {
  const query = { url: 'https://news.example.com/story', userId: 'visitor-1', referrer: 'https://search.example/', device: 'mobile', country: 'DE', utm_source: 'a', utm_medium: 'b', utm_campaign: 'c' };
  const event = { type: 'paywall_shown', url: 'https://news.example.com/story', userId: 'visitor-1', paywallId: UUID, experimentId: UUID, variantId: UUID, data: { email: 'a@example.com' }, occurredAt: new Date().toISOString() };

  it('accept the ordinary page view, its check and a batch, so they skip the decorators', () => {
    expect(quickCheckOf(AccessCheckQueryDto)?.({ url: 'https://news.example.com/story' })).toBe(true);
    expect(quickCheckOf(AccessCheckQueryDto)?.(query)).toBe(true);
    expect(quickCheckOf(TrackEventDto)?.({ type: 'page_view', url: 'https://news.example.com/story' })).toBe(true);
    expect(quickCheckOf(TrackEventDto)?.(event)).toBe(true);
    expect(quickCheckOf(TrackEventBatchDto)?.({ events: Array.from({ length: 50 }, () => event) })).toBe(true);
  });

  it('never accept what the access check query rules refuse', async () => {
    const accepted = await expectQuickImpliesFull(AccessCheckQueryDto, [
      ...nearMisses(query, Object.keys(query)),
      ...nearMisses({ url: 'https://news.example.com/story' }, Object.keys(query)),
    ]);
    expect(accepted).toBeGreaterThan(20);
  });

  it('never accept what the track event rules refuse, alone or in a batch', async () => {
    const events = [...nearMisses(event, Object.keys(event)), ...nearMisses({ type: 'page_view', url: 'https://x.example/' }, Object.keys(event))];
    expect(await expectQuickImpliesFull(TrackEventDto, events)).toBeGreaterThan(20);
    const batches = [
      { events: [] },
      { events: Array.from({ length: 51 }, () => event) },
      { events: event },
      { events: [event], extra: 1 },
      ...events.map((one) => ({ events: [event, one] })),
    ];
    expect(await expectQuickImpliesFull(TrackEventBatchDto, batches)).toBeGreaterThan(20);
  });

  it('leave every refusal to class-validator: the same field errors as before', async () => {
    const pipe = createValidationPipe();
    const refusal = (value: unknown) =>
      pipe.transform(value, { type: 'query', metatype: AccessCheckQueryDto }).then(
        () => undefined,
        (error: { problem: { errors?: unknown } }) => error.problem.errors,
      );
    expect(await refusal({ url: 'https://news.example.com/story', device: 'phone', extra: '1' })).toEqual([
      { field: 'extra', message: 'property extra should not exist' },
      { field: 'device', message: 'device must be one of the following values: desktop, mobile, tablet' },
    ]);
  });
});
