import { aiCrawlerOf, inRange, searchEngineOf } from '../known-crawlers';

describe('known crawlers', () => {
  it('knows AI crawlers by their User-Agent, in any case', () => {
    expect(aiCrawlerOf('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)')).toBe('GPTBot');
    expect(aiCrawlerOf('Mozilla/5.0 (compatible; claudebot/1.0; +claudebot@anthropic.com)')).toBe('ClaudeBot');
    expect(aiCrawlerOf('CCBot/2.0 (https://commoncrawl.org/faq/)')).toBe('CCBot');
    expect(aiCrawlerOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0 Safari/537.36')).toBeUndefined();
  });

  it('knows search engines by their User-Agent, and Applebot-Extended as an AI crawler rather than Applebot', () => {
    expect(searchEngineOf('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')?.name).toBe('Googlebot');
    expect(searchEngineOf('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)')?.name).toBe('Bingbot');
    expect(searchEngineOf('Mozilla/5.0 (Applebot-Extended/0.1)')).toBeUndefined();
    expect(aiCrawlerOf('Mozilla/5.0 (Applebot-Extended/0.1)')).toBe('Applebot-Extended');
  });

  it('places addresses in CIDR ranges, IPv4-mapped IPv6 included', () => {
    expect(inRange('66.249.66.1', '66.249.64.0/19')).toBe(true);
    expect(inRange('66.249.96.1', '66.249.64.0/19')).toBe(false);
    expect(inRange('::ffff:157.55.39.200', '157.55.39.0/24')).toBe(true);
    expect(inRange('20.191.45.212', '20.191.45.212/32')).toBe(true);
    expect(inRange('not-an-ip', '0.0.0.0/0')).toBe(false);
    expect(inRange('2001:db8::1', '66.249.64.0/19')).toBe(false);
  });
});
