import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes (256 bits), base64url: the form of every session token and API key body. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** How tokens and keys are stored and looked up: only their SHA-256, never the value itself. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
