import { ConfigError, loadConfig } from '@gatehouse/platform';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhooksOutConfig } from '../../webhooks-out.config';
import { WebhookSecretBox } from '../webhook-secret-box.service';

describe('webhook secrets at rest', () => {
  let dataDir: string;
  const nodeEnv = process.env['NODE_ENV'];

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'webhooks-out-'));
  });

  afterEach(() => {
    process.env['NODE_ENV'] = nodeEnv;
    rmSync(dataDir, { recursive: true, force: true });
  });

  const boxWith = (env: Record<string, string>) => new WebhookSecretBox(loadConfig(WebhooksOutConfig, { DATA_DIR: dataDir, ...env }));

  it('encrypts under WEBHOOK_SECRETS_KEY, so only that key opens them', () => {
    const key = randomBytes(32).toString('base64');
    const sealed = boxWith({ WEBHOOK_SECRETS_KEY: key }).seal('whsec_secret');
    expect(sealed).not.toContain('whsec_secret');
    expect(boxWith({ WEBHOOK_SECRETS_KEY: key }).open(sealed)).toBe('whsec_secret');
    expect(() => boxWith({ WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64') }).open(sealed)).toThrow();
  });

  it('without a key, generates one under DATA_DIR (mode 0600) and keeps using it', () => {
    const sealed = boxWith({}).seal('whsec_secret');
    expect(statSync(join(dataDir, 'webhook-secrets.key')).mode & 0o777).toBe(0o600);
    expect(boxWith({}).open(sealed)).toBe('whsec_secret');
  });

  it('refuses to start in production without a key, and with a malformed one anywhere', () => {
    process.env['NODE_ENV'] = 'production';
    expect(() => boxWith({})).toThrow(new ConfigError('Invalid configuration: WEBHOOK_SECRETS_KEY is required in production'));
    expect(() => boxWith({ WEBHOOK_SECRETS_KEY: 'c2hvcnQ=' })).toThrow(new ConfigError('Invalid configuration: WEBHOOK_SECRETS_KEY must be 32 bytes, base64'));
  });
});
