import { GatehouseError } from './errors';

/** The cookie's default name: the one `@gatehouse/node` reads (docs/server.md). */
export const TOKEN_COOKIE = 'gatehouse_token';
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The signed-in reader's access token in a first-party cookie of the page's own host, so that
 * the publisher's server knows the reader on the first request of a page (docs/server.md). It
 * lives as long as the token (15 minutes at most) and follows the session: written at sign-in and
 * on each refresh, removed at sign-out.
 */
export class TokenCookie {
  constructor(
    private readonly write: (cookie: string) => void,
    private readonly name: string,
    private readonly secure: boolean,
    private readonly now: () => number,
  ) {
    if (!COOKIE_NAME.test(name)) throw new GatehouseError('validation_failed', 0, `tokenCookie must be a cookie name, not ${JSON.stringify(name)}.`);
  }

  keep(session: { accessToken: string; expiresAt: number } | null): void {
    const seconds = session ? Math.floor((session.expiresAt - this.now()) / 1000) : 0;
    const attributes = `; Path=/; SameSite=Lax${this.secure ? '; Secure' : ''}`;
    this.write(seconds > 0 && session ? `${this.name}=${session.accessToken}; Max-Age=${seconds}${attributes}` : `${this.name}=; Max-Age=0${attributes}`);
  }
}
