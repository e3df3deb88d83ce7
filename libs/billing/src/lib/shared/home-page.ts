import type { PublicationView } from '@gatehouse/contracts';

/** The publication's home page on its first proven domain, where readers are sent back; null without one. */
export function homePageOf(publication: PublicationView): string | null {
  const domain = publication.verifiedDomains.find((d) => !d.startsWith('*.'));
  return domain ? `https://${domain}/` : null;
}
