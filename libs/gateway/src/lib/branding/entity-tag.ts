import { createHash } from 'node:crypto';

/** A strong entity tag of a JSON body: the same configuration always has the same tag. */
export function entityTagOf(body: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url')}"`;
}

/** RFC 9110 13.1.2: `*`, or any listed tag equal to ours under the weak comparison that GET uses. */
export function ifNoneMatchHits(ifNoneMatch: string | undefined, entityTag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((listed) => {
    const tag = listed.trim();
    return tag === '*' || tag.replace(/^W\//, '') === entityTag;
  });
}

/** RFC 9110 13.1.1: `*`, or any listed tag equal to ours under the strong comparison that writes use. */
export function ifMatchHits(ifMatch: string, entityTag: string): boolean {
  return ifMatch.split(',').some((listed) => listed.trim() === '*' || listed.trim() === entityTag);
}
