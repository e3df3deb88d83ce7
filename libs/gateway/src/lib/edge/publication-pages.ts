import { AppError, hostInDomains, isLoopbackHost } from '@gatehouse/platform';
import type { Principal } from './principal';

/**
 * Where the API sends a reader afterwards (an email link's page, checkout's success and cancel
 * pages, the billing portal's way back) must be a page of the key's publication, over https; plain
 * http only on a loopback host (local development). Otherwise any site could be the landing page
 * of a link that carries a token, or of a reader who just paid.
 */
export function requirePublicationPages<T extends object>(caller: Principal, body: T, fields: ReadonlyArray<keyof T & string>): T {
  for (const field of fields) {
    const raw = body[field];
    if (typeof raw !== 'string') continue;
    const url = new URL(raw);
    if (!hostInDomains(url.hostname, caller.apiKey?.domains ?? [])) {
      throw new AppError('url_not_in_publication', `${field} must be a page on one of the publication’s domains.`);
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) throw AppError.invalid(field, 'must be an https URL (http only on a loopback host)');
  }
  return body;
}
