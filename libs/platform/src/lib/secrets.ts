import { compare, hash } from 'bcrypt';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { ConfigError } from './config';
import { AppError } from './problem';

/** 32 random bytes (256 bits), base64url: the body of every opaque token and key. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** How tokens and keys are stored and looked up: only their SHA-256, never the value itself. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * Admits at most `running` tasks at once and `waiting` more in line; past that, 503
 * `service_unavailable` with `Retry-After` at once, rather than a queue that grows without end.
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.running) {
      if (this.queue.length >= this.waiting) {
        throw AppError.retryLater('service_unavailable', 'Too many sign-ins at once. Retry in a second.', 1);
      }
      await new Promise<void>((admit) => this.queue.push(admit));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/**
 * bcrypt runs on libuv's small thread pool (4 threads by default), which DNS lookups and file
 * access share: at most two hashes at a time per process, and a line of 32 behind them (about as
 * many cost-12 hashes as finish within the bus's 5 s), so a burst of logins can neither starve the
 * rest of the process nor queue without bound.
 */
export const HASHING_CONCURRENCY = { running: 2, waiting: 32 };
const hashing = new ConcurrencyLimit(HASHING_CONCURRENCY.running, HASHING_CONCURRENCY.waiting);

/**
 * bcrypt with the same cost paid whether or not there is a hash to compare against, so an
 * unknown account answers as slowly as a wrong password and reveals nothing.
 */
export class PasswordHasher {
  private constructor(
    private readonly cost: number,
    private readonly dummyHash: string,
  ) {}

  static async withCost(cost: number): Promise<PasswordHasher> {
    return new PasswordHasher(cost, await hash(randomToken(), cost));
  }

  hash(password: string): Promise<string> {
    return hashing.run(() => hash(password, this.cost));
  }

  async verify(password: string, storedHash: string | null | undefined): Promise<boolean> {
    const matches = await hashing.run(() => compare(password, storedHash ?? this.dummyHash));
    return matches && typeof storedHash === 'string';
  }
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM for secrets that must be used again (processor keys, webhook signing secrets), never stored in clear. */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromBase64(key: string): SecretBox {
    const bytes = Buffer.from(key, 'base64');
    if (bytes.length !== 32) throw new Error('an encryption key must be 32 bytes, base64');
    return new SecretBox(bytes);
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/**
 * The encryption key named by `variable`: its value when set (32 bytes, base64). Unset, production
 * refuses to start; elsewhere a key is generated once and kept in `keyFile` (mode 0600), so local
 * starts work and keep decrypting what they stored.
 */
export function loadEncryptionKey(variable: string, value: string | undefined, keyFile: string): { box: SecretBox; generated: boolean } {
  if (value) {
    try {
      return { box: SecretBox.fromBase64(value), generated: false };
    } catch {
      throw new ConfigError(`Invalid configuration: ${variable} must be 32 bytes, base64`);
    }
  }
  if (process.env['NODE_ENV'] === 'production') throw new ConfigError(`Invalid configuration: ${variable} is required in production`);
  mkdirSync(dirname(keyFile), { recursive: true });
  let generated = true;
  try {
    // 'wx': of two processes starting together on a fresh DATA_DIR, one writes and both read its key.
    writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    generated = false;
  }
  return { box: SecretBox.fromBase64(readFileSync(keyFile, 'utf8').trim()), generated };
}
