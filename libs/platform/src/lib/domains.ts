/** Decisions A1: `example.com` is that host only, `*.example.com` any of its subdomains. */
export function hostInDomains(hostname: string, domains: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return domains.some((domain) => {
    const pattern = domain.trim().toLowerCase();
    return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern;
  });
}
