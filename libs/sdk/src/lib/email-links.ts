import type { EmailKind } from '@gatehouse/contracts';

/** A token from an account email's link, waiting for the reader to confirm what it does. */
export interface EmailLink {
  kind: EmailKind;
  token: string;
}

/** `EMAIL_LINK_PARAMETERS` of the contracts (web packages take only types from there; a test keeps the two equal). */
export const LINK_PARAMETERS: Record<EmailKind, string> = {
  password_reset: 'gatehouse-reset-password',
  email_verification: 'gatehouse-verify-email',
  login_code: 'gatehouse-login',
};

/**
 * The link in the page's URL fragment (`#gatehouse-login=<token>`), and the URL without it, so
 * that the token leaves the address bar, the history and shared links. Other fragment parameters
 * stay. Null when the fragment carries no link.
 */
export function takeEmailLink(href: string): { link: EmailLink; rest: string } | null {
  const at = href.indexOf('#');
  if (at < 0) return null;
  const fragment = new URLSearchParams(href.slice(at + 1));
  let link: EmailLink | null = null;
  for (const [kind, name] of Object.entries(LINK_PARAMETERS) as Array<[EmailKind, string]>) {
    const token = fragment.get(name);
    if (token && !link) link = { kind, token };
    fragment.delete(name);
  }
  if (!link) return null;
  const kept = fragment.toString();
  return { link, rest: href.slice(0, at) + (kept ? `#${kept}` : '') };
}
