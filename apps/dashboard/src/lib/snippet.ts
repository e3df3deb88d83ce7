/**
 * What a publisher pastes into their pages (docs/elements.md, "On a page"): the SDK with their
 * publishable key, the web components, and the elements that lock an article and sign readers in.
 */
export function pageSnippet(publishableKey: string, gateway = window.location.origin): string {
  return [
    `<script src="${gateway}/sdk/v1/gatehouse.js" data-publishable-key="${publishableKey}" async></script>`,
    `<script src="${gateway}/sdk/v1/elements.js" async></script>`,
    '',
    '<gatehouse-content-lock>',
    '  <p>The article…</p>',
    '</gatehouse-content-lock>',
    '<gatehouse-auth-modal></gatehouse-auth-modal>',
  ].join('\n');
}
