/** The form every customer email is stored and looked up in, so `Ann@Example.com ` and `ann@example.com` are one customer. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
