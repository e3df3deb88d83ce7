/** The success URL's query parameter carrying the processor's checkout session id back to the page. */
export const CHECKOUT_PARAMETER = 'gatehouse_checkout';
/** What the processor replaces with the session's id when it sends the reader back (its template variable). */
const SESSION_ID_TEMPLATE = '{CHECKOUT_SESSION_ID}';

/** `successUrl` with `gatehouse_checkout={CHECKOUT_SESSION_ID}` in its query, unless it asks for the id already. */
export function withCheckoutReturn(successUrl: string): string {
  if (successUrl.includes(SESSION_ID_TEMPLATE)) return successUrl;
  const at = successUrl.indexOf('#');
  const base = at < 0 ? successUrl : successUrl.slice(0, at);
  return `${base}${base.includes('?') ? '&' : '?'}${CHECKOUT_PARAMETER}=${SESSION_ID_TEMPLATE}${at < 0 ? '' : successUrl.slice(at)}`;
}

/** The session id the page came back from checkout with, and the page's URL without it; null when it did not. */
export function takeCheckoutReturn(href: string): { sessionId: string; rest: string } | null {
  const url = new URL(href);
  const sessionId = url.searchParams.get(CHECKOUT_PARAMETER);
  if (sessionId === null) return null;
  url.searchParams.delete(CHECKOUT_PARAMETER);
  return { sessionId, rest: url.href };
}
