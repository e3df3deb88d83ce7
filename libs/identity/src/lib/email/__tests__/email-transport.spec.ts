import { ConfigError, loadConfig } from '@gatehouse/platform';
import { IdentityConfig } from '../../identity.config';
import { EmailTransport } from '../email-transport.service';

/** The local mailbox lets staff read readers' sign-in codes, so production must send real email (issue 22 item 2). */
describe('the email transport at start-up', () => {
  const env = process.env['NODE_ENV'];
  afterEach(() => (process.env['NODE_ENV'] = env));

  it('refuses to start in production without SMTP_URL, naming the variable', () => {
    process.env['NODE_ENV'] = 'production';
    const config = loadConfig(IdentityConfig, { NODE_ENV: 'production' });
    expect(() => new EmailTransport(config)).toThrow(
      new ConfigError('Invalid configuration: SMTP_URL is required in production (the local mailbox is for development)'),
    );
  });

  it('starts in production with SMTP_URL, and outside production with the mailbox', () => {
    process.env['NODE_ENV'] = 'production';
    const smtp = new EmailTransport(loadConfig(IdentityConfig, { NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:9' }));
    expect(smtp.delivery).toBe('smtp');
    smtp.onModuleDestroy();

    process.env['NODE_ENV'] = 'development';
    expect(new EmailTransport(loadConfig(IdentityConfig, {})).delivery).toBe('mailbox');
  });
});
