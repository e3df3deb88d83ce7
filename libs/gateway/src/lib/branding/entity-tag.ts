import type { BrandingRevision } from '@gatehouse/contracts';
import { createHash } from 'node:crypto';

/**
 * A strong entity tag of a publication's branding: its revision, which `If-Match` is checked
 * against in the write, and a hash of the body, so that two publications never share a tag.
 */
export function entityTagOf({ configuration, revision }: BrandingRevision): string {
  return `"r${revision}-${createHash('sha256').update(JSON.stringify(configuration)).digest('base64url')}"`;
}

/** RFC 9110 13.1.2: `*`, or any listed tag equal to ours under the weak comparison that GET uses. */
export function ifNoneMatchHits(ifNoneMatch: string | undefined, entityTag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((listed) => {
    const tag = listed.trim();
    return tag === '*' || tag.replace(/^W\//, '') === entityTag;
  });
}

/**
 * RFC 9110 13.1.1: the revisions an `If-Match` names (the write is made only on one of them), or
 * undefined for `*` (the branding always has a representation, so `*` always holds). Weak tags
 * never match a write; a tag not of ours names no revision.
 */
export function ifMatchRevisions(ifMatch: string): number[] | undefined {
  const tags = ifMatch.split(',').map((listed) => listed.trim());
  if (tags.includes('*')) return undefined;
  return tags.flatMap((tag) => {
    const revision = /^"r(\d{1,9})-[A-Za-z0-9_-]+"$/.exec(tag)?.[1];
    return revision === undefined ? [] : [Number(revision)];
  });
}
