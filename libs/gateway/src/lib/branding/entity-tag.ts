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
