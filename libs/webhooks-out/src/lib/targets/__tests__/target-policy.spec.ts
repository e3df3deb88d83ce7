import { loadConfig } from '@gatehouse/platform';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { WebhooksOutConfig } from '../../webhooks-out.config';
import { isPrivateAddress } from '../private-addresses';
import { TargetPolicy, TargetRefused } from '../target-policy.service';

const policy = (allowInsecure: boolean) => new TargetPolicy(loadConfig(WebhooksOutConfig, { ALLOW_INSECURE_WEBHOOK_URLS: String(allowInsecure) }));

async function refusalOf(check: Promise<void>): Promise<unknown> {
  try {
    await check;
  } catch (err) {
    return (err as { problem: unknown }).problem;
  }
  return undefined;
}

describe('private addresses', () => {
  it.each([
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '127.0.0.1',
    '127.255.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    // Every IPv6 form that carries an IPv4 address is judged by that address.
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:0:10.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::169.254.169.254',
    '64:ff9b:1::8.8.8.8',
    '2002:7f00:1::1',
    '2002:a00:1::',
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    '2001:0:a00:1::1',
  ])('%s is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '::8.8.8.8'])('%s is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('target policy at registration', () => {
  const refusedUrl = (message: string) => ({ code: 'validation_failed', status: 400, errors: [{ field: 'url', message }] });

  it('refuses plain http, credentials and private targets, however they are spelled', async () => {
    const strict = policy(false);
    expect(await refusalOf(strict.assertRegistrable('http://hooks.example.com/x'))).toMatchObject(refusedUrl('must be an https URL'));
    expect(await refusalOf(strict.assertRegistrable('https://user:pw@hooks.example.com/x'))).toMatchObject(refusedUrl('must not contain credentials'));
    const privateTarget = refusedUrl('must not point to a private, loopback or link-local address');
    for (const url of ['https://127.0.0.1/x', 'https://2130706433/x', 'https://0x7f.1/x', 'https://[::1]/x', 'https://[::ffff:10.0.0.1]/', 'https://169.254.169.254/latest', 'https://[::127.0.0.1]/x', 'https://[64:ff9b::7f00:1]/x', 'https://[2002:7f00:1::1]/x']) {
      expect(await refusalOf(strict.assertRegistrable(url))).toMatchObject(privateTarget);
    }
    // A name is judged by every address it resolves to.
    expect(await refusalOf(strict.assertRegistrable('https://localhost:8443/hook'))).toMatchObject(privateTarget);
    // Whether the resolver says so at once or not in time, a name that does not resolve is refused.
    expect(await refusalOf(strict.assertRegistrable('https://hooks.invalid/x'))).toMatchObject({ code: 'validation_failed', errors: [{ field: 'url' }] });
  });

  it('accepts http and private targets when ALLOW_INSECURE_WEBHOOK_URLS is set', async () => {
    await expect(policy(true).assertRegistrable('http://127.0.0.1:9/hook')).resolves.toBeUndefined();
    await expect(policy(true).assertRegistrable('http://localhost/hook')).resolves.toBeUndefined();
    expect(await refusalOf(policy(true).assertRegistrable('ftp://example.com/'))).toMatchObject(refusedUrl('must be an http(s) URL'));
  });
});

describe('target policy at delivery', () => {
  let server: Server;
  let port: number;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests += 1;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** Where a request to our local receiver, connected with the given lookup, ends. */
  function requestWith(lookup: LookupFunction | undefined): Promise<string> {
    return new Promise((resolve) => {
      const req = request(`http://localhost:${port}/`, { lookup, agent: false }, (res) => {
        res.resume();
        resolve(`answered ${res.statusCode}`);
      });
      req.on('error', (err) => resolve(err instanceof TargetRefused ? `refused: ${err.message}` : `error: ${err.message}`));
      req.end();
    });
  }

  it('refuses private IP literals before connecting', () => {
    expect(() => policy(false).forDelivery(`https://127.0.0.1:${port}/`)).toThrow(new TargetRefused('must not point to a private, loopback or link-local address'));
  });

  it('checks the addresses a name resolves to when connecting, so re-pointing it after registration gets nowhere', async () => {
    expect(await requestWith(policy(false).forDelivery(`https://localhost:${port}/`).lookup)).toBe(
      'refused: the host name resolves to a private, loopback or link-local address',
    );
    expect(requests).toBe(0);
    expect(await requestWith(policy(true).forDelivery(`http://localhost:${port}/`).lookup)).toBe('answered 200');
    expect(requests).toBe(1);
  });
});
