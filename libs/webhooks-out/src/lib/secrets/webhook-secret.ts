import { randomBytes } from 'node:crypto';

const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A registration's signing secret: `whsec_` + 32 random bytes, base64 (decisions G1). */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}
