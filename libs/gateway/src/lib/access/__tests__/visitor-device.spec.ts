import { deviceFromUserAgent } from '../visitor-device';

describe('device from User-Agent', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36', 'desktop'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15', 'desktop'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36', 'tablet'],
  ])('%s → %s', (userAgent, device) => {
    expect(deviceFromUserAgent(userAgent)).toBe(device);
  });

  it('tells an Android tablet by "Mobile" after "Android" on a long header too', () => {
    const repeated = 'Android'.repeat(2_000);
    expect(deviceFromUserAgent(repeated)).toBe('tablet');
    expect(deviceFromUserAgent(`${repeated}Mobile`)).toBe('mobile');
    expect(deviceFromUserAgent(`Mobile ${repeated}`)).toBe('tablet');
  });

  it('knows nothing without a User-Agent', () => {
    expect(deviceFromUserAgent(undefined)).toBeUndefined();
    expect(deviceFromUserAgent('')).toBeUndefined();
  });
});
