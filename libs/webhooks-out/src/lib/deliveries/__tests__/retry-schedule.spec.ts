import { ConfigError, loadConfig } from '@gatehouse/platform';
import { WebhooksOutConfig } from '../../webhooks-out.config';
import { RetrySchedule } from '../retry-schedule.service';

const at = (iso: string) => new Date(iso);

describe('retry schedule', () => {
  it('by default retries 10 s and 60 s after the first attempt, then stops (decisions G3)', () => {
    const schedule = new RetrySchedule(loadConfig(WebhooksOutConfig, {}));
    const first = at('2031-01-01T00:00:00.000Z');
    const second = schedule.nextAttemptAt(0, first);
    expect(second).toEqual(at('2031-01-01T00:00:10.000Z'));
    expect(schedule.nextAttemptAt(1, second as Date)).toEqual(at('2031-01-01T00:01:00.000Z'));
    expect(schedule.nextAttemptAt(2, at('2031-01-01T00:01:00.000Z'))).toBeNull();
  });

  it('keeps the gaps when an attempt was made late', () => {
    const schedule = new RetrySchedule(loadConfig(WebhooksOutConfig, { WEBHOOK_RETRY_DELAYS_SECONDS: '0.2, 0.6' }));
    expect(schedule.nextAttemptAt(1, at('2031-01-01T00:00:05.000Z'))).toEqual(at('2031-01-01T00:00:05.400Z'));
  });

  it.each(['', 'ten', '60,10', '0,10', '10,10', '-1'])('refuses WEBHOOK_RETRY_DELAYS_SECONDS=%j at start-up', (value) => {
    const load = () => loadConfig(WebhooksOutConfig, { WEBHOOK_RETRY_DELAYS_SECONDS: value || ' ' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow('Invalid configuration: WEBHOOK_RETRY_DELAYS_SECONDS must be increasing seconds separated by commas, e.g. 10,60');
  });
});
