/**
 * The pages the gateway serves on its own origin besides the API, and the Content-Security-Policy
 * of each: they share the origin (and so the staff session cookie) with the dashboard, so none may
 * be framed by another site or load script from one.
 */
const COMMON = ["default-src 'self'", "connect-src 'self'", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'"];

const POLICIES: Array<[prefix: string, policy: string]> = [
  // Radix positions popovers with inline styles; the branding preview sets CSS properties inline; publishers' logos live on their own hosts.
  ['/dashboard', [...COMMON, "script-src 'self'", "style-src 'self' 'unsafe-inline'", 'img-src * data:'].join('; ')],
  // Swagger UI: its own scripts, inline styles and data: icons.
  ['/docs', [...COMMON, "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:"].join('; ')],
  // The demo publisher's pages carry small inline scripts, as a publisher's page does.
  ['/demo', [...COMMON, "script-src 'self' 'unsafe-inline'", "style-src 'self' 'unsafe-inline'", 'img-src * data:'].join('; ')],
];

/** The policy of a page path, or undefined for the API and anything else. */
export function pagePolicy(path: string): string | undefined {
  return POLICIES.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))?.[1];
}
