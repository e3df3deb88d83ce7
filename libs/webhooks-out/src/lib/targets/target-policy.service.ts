import { Injectable } from '@nestjs/common';
import { AppError } from '@gatehouse/platform';
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { WebhooksOutConfig } from '../webhooks-out.config';
import { isPrivateAddress } from './private-addresses';

/** Registration answers within the bus's 5 s: a resolver that hangs must not hold the request. */
const RESOLVE_TIMEOUT_MS = 3_000;
const PRIVATE_TARGET = 'must not point to a private, loopback or link-local address';
const PRIVATE_RESOLUTION = 'the host name resolves to a private, loopback or link-local address';

/** Why a target was refused; the message is safe to show the publisher. */
export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/**
 * Where webhooks may be sent (decisions G2): https only, and never to a private network, unless
 * ALLOW_INSECURE_WEBHOOK_URLS is set. Checked at registration, and again for every connection a
 * delivery makes, on the very addresses it connects to, so a name re-pointed after registration
 * (DNS rebinding) gets nowhere.
 */
@Injectable()
export class TargetPolicy {
  private readonly allowInsecure: boolean;

  constructor(config: WebhooksOutConfig) {
    this.allowInsecure = config.ALLOW_INSECURE_WEBHOOK_URLS;
  }

  /** At registration: 400 validation_failed on `url` unless the URL may be targeted. */
  async assertRegistrable(url: string): Promise<void> {
    try {
      const target = this.parse(url);
      if (!this.allowInsecure && isIP(target.host) === 0) this.assertPublic(await resolve(target.host));
    } catch (err) {
      if (err instanceof TargetRefused) throw new AppError('validation_failed', 'The request is invalid.', [{ field: 'url', message: err.message }]);
      throw err;
    }
  }

  /**
   * At delivery: the URL to connect to, and the lookup to connect with (undefined: the system's).
   * Throws TargetRefused for a URL that may no longer be targeted.
   */
  forDelivery(url: string): { url: URL; lookup: LookupFunction | undefined } {
    const target = this.parse(url);
    return { url: target.url, lookup: this.allowInsecure ? undefined : publicOnlyLookup };
  }

  private parse(raw: string): { url: URL; host: string } {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new TargetRefused('must be an absolute URL');
    }
    const allowed = this.allowInsecure ? ['https:', 'http:'] : ['https:'];
    if (!allowed.includes(url.protocol)) throw new TargetRefused(this.allowInsecure ? 'must be an http(s) URL' : 'must be an https URL');
    if (url.username || url.password) throw new TargetRefused('must not contain credentials');
    // The URL parser has already normalised IP literals (`0x7f.1` is 127.0.0.1); IPv6 ones keep their brackets.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!this.allowInsecure && isPrivateAddress(host)) throw new TargetRefused(PRIVATE_TARGET);
    return { url, host };
  }

  private assertPublic(addresses: LookupAddress[]): void {
    if (addresses.some(({ address }) => isPrivateAddress(address))) throw new TargetRefused(PRIVATE_TARGET);
  }
}

async function resolve(host: string): Promise<LookupAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TargetRefused('host name did not resolve in time')), RESOLVE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([lookupAll(host), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function lookupAll(host: string, options: Omit<LookupOptions, 'all'> = {}): Promise<LookupAddress[]> {
  return new Promise((done, fail) => {
    lookup(host, { ...options, all: true }, (err, addresses) => {
      if (err || addresses.length === 0) fail(new TargetRefused('host name does not resolve'));
      else done(addresses);
    });
  });
}

/** A `lookup` for sockets: resolves as the system would, and fails if any address is private. */
const publicOnlyLookup: LookupFunction = (hostname, { all, ...options }, callback) => {
  lookupAll(hostname, options).then(
    (addresses) => {
      if (addresses.some(({ address }) => isPrivateAddress(address))) return callback(new TargetRefused(PRIVATE_RESOLUTION), '', 0);
      if (all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    },
    (err: Error) => callback(err, '', 0),
  );
};
