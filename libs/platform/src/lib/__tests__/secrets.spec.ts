import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config';
import { ConcurrencyLimit, loadEncryptionKey, PasswordHasher, SecretBox, sha256Hex } from '../secrets';

describe('secrets', () => {
  it('hashes passwords and refuses a wrong one or a missing hash', async () => {
    const hasher = await PasswordHasher.withCost(4);
    const stored = await hasher.hash('correct horse');
    expect(stored).not.toContain('correct horse');
    await expect(hasher.verify('correct horse', stored)).resolves.toBe(true);
    await expect(hasher.verify('wrong horse', stored)).resolves.toBe(false);
    await expect(hasher.verify('correct horse', null)).resolves.toBe(false);
  });

  it('seals and opens secrets with AES-256-GCM, and detects tampering or another key', () => {
    const box = SecretBox.fromBase64(Buffer.alloc(32, 7).toString('base64'));
    const sealed = box.encrypt('sk_live_1234');
    expect(sealed).not.toContain('sk_live_1234');
    expect(box.encrypt('sk_live_1234')).not.toBe(sealed);
    expect(box.decrypt(sealed)).toBe('sk_live_1234');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('sk_live_9999').toString('base64url');
    expect(() => box.decrypt(parts.join('.'))).toThrow();
    expect(() => SecretBox.fromBase64(Buffer.alloc(32, 8).toString('base64')).decrypt(sealed)).toThrow();
  });

  it('hashes lookups with SHA-256', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  describe('loadEncryptionKey', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-'));
    const env = process.env['NODE_ENV'];
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    afterEach(() => (process.env['NODE_ENV'] = env));

    it('uses the configured key, and names the variable when it is malformed', () => {
      const key = Buffer.alloc(32, 1).toString('base64');
      expect(loadEncryptionKey('SOME_KEY', key, join(dir, 'unused')).generated).toBe(false);
      expect(() => loadEncryptionKey('SOME_KEY', 'short', join(dir, 'unused'))).toThrow(new ConfigError('Invalid configuration: SOME_KEY must be 32 bytes, base64'));
    });

    it('outside production generates a key once, keeps it private, and reuses it', () => {
      const file = join(dir, 'nested', 'a.key');
      const first = loadEncryptionKey('SOME_KEY', undefined, file);
      expect(first.generated).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const second = loadEncryptionKey('SOME_KEY', undefined, file);
      expect(second.generated).toBe(false);
      expect(second.box.decrypt(first.box.encrypt('x'))).toBe('x');
      expect(Buffer.from(readFileSync(file, 'utf8'), 'base64')).toHaveLength(32);
    });

    it('requires the key in production', () => {
      process.env['NODE_ENV'] = 'production';
      expect(() => loadEncryptionKey('SOME_KEY', undefined, join(dir, 'prod.key'))).toThrow(/SOME_KEY is required in production/);
    });
  });
});

describe('concurrency limit', () => {
  it('runs at most `running` tasks at once, queues `waiting` more, and refuses the rest with 503 and Retry-After', async () => {
    const limit = new ConcurrencyLimit(2, 1);
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const task = () =>
      limit.run(async () => {
        most = Math.max(most, ++running);
        await new Promise<void>((release) => releases.push(release));
        running--;
        return 'done';
      });
    const admitted = [task(), task(), task()];
    await expect(task()).rejects.toMatchObject({ problem: { status: 503, code: 'service_unavailable', retryAfter: 1 } });
    const tick = () => new Promise((r) => setImmediate(r));
    await tick();
    expect(releases).toHaveLength(2);
    releases.shift()?.();
    await tick();
    // The one in line took the freed place.
    expect(releases).toHaveLength(2);
    for (const release of releases.splice(0)) release();
    await expect(Promise.all(admitted)).resolves.toEqual(['done', 'done', 'done']);
    expect(most).toBe(2);
  });
});
