import { isStorableText } from './input-limits';

/** The admin session cookie (decisions A4). */
export const SESSION_COOKIE = 'service_session';
const SEVEN_DAYS_S = 7 * 24 * 3600;

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    // A cookie the client mangled is no session: the route answers as if none was sent.
    try {
      const decoded = decodeURIComponent(value.join('='));
      return isStorableText(decoded) ? decoded : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function sessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${SEVEN_DAYS_S}${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0${secure ? '; Secure' : ''}`;
}
