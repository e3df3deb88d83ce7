import { isIP } from 'node:net';

/** Decisions A1: `example.com` is that host only, `*.example.com` any of its subdomains. */
export function hostInDomains(hostname: string, domains: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return domains.some((domain) => {
    const pattern = domain.trim().toLowerCase();
    return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern;
  });
}

/** A host only this machine can serve: `localhost` and its subdomains, 127.0.0.0/8 and ::1 (IPv6 with or without brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
