/*
 * The marker of a paid region: any element carrying `data-gatehouse="paid"`. For a denied reader
 * the element and everything inside it are replaced by the paywall element; the page around it is
 * left byte for byte as it was.
 */

const PAID_OPENING = /<([a-zA-Z][\w-]*)\b[^>]*\bdata-gatehouse\s*=\s*(?:"paid"|'paid'|paid\b)[^>]*>/g;
/** The class the structured data's `hasPart.cssSelector` names; added to every paid region. */
export const PAID_CLASS = 'gatehouse-paid';

export function hasPaidRegion(html: string): boolean {
  PAID_OPENING.lastIndex = 0;
  return PAID_OPENING.test(html);
}

/** Each paid region: where its opening tag starts, where its closing tag ends, and the opening tag. */
function paidRegions(html: string): Array<{ start: number; end: number; openingTag: string }> {
  const regions: Array<{ start: number; end: number; openingTag: string }> = [];
  PAID_OPENING.lastIndex = 0;
  for (let match = PAID_OPENING.exec(html); match; match = PAID_OPENING.exec(html)) {
    const tag = match[1].toLowerCase();
    const end = closingEnd(html, tag, match.index + match[0].length);
    regions.push({ start: match.index, end, openingTag: match[0] });
    PAID_OPENING.lastIndex = end;
  }
  return regions;
}

/** The end of the closing tag that balances an opening `tag` whose content starts at `from` (the document's end if none does). */
function closingEnd(html: string, tag: string, from: number): number {
  const tags = new RegExp(`<!--[\\s\\S]*?-->|<(/?)${tag}\\b[^>]*?(/?)>`, 'gi');
  tags.lastIndex = from;
  let depth = 1;
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    if (match[0].startsWith('<!--') || match[2] === '/') continue;
    depth += match[1] === '/' ? -1 : 1;
    if (depth === 0) return match.index + match[0].length;
  }
  return html.length;
}

function withPaidClass(openingTag: string): string {
  const classAttribute = /\bclass\s*=\s*(["'])(.*?)\1/i.exec(openingTag);
  if (!classAttribute) return openingTag.replace(/^<([a-zA-Z][\w-]*)/, `<$1 class="${PAID_CLASS}"`);
  if (classAttribute[2].split(/\s+/).includes(PAID_CLASS)) return openingTag;
  return openingTag.replace(classAttribute[0], `class=${classAttribute[1]}${classAttribute[2]} ${PAID_CLASS}${classAttribute[1]}`);
}

/** Each paid region replaced by `paywall` (which carries the paid class, so the structured data still points at it). */
export function removePaidRegions(html: string, paywall: string): string {
  let out = '';
  let at = 0;
  for (const region of paidRegions(html)) {
    out += html.slice(at, region.start) + paywall;
    at = region.end;
  }
  return out + html.slice(at);
}

/** Every paid region kept, marked with the paid class. */
export function markPaidRegions(html: string): string {
  let out = '';
  let at = 0;
  for (const region of paidRegions(html)) {
    out += html.slice(at, region.start) + withPaidClass(region.openingTag);
    at = region.start + region.openingTag.length;
  }
  return out + html.slice(at);
}

/**
 * schema.org markup for paywalled content, as search engines ask of it: the page is not free, and
 * the part that is not free is the paid class. Inserted before `</head>` (or at the start).
 */
export function withStructuredData(html: string, pageType: string): string {
  const markup = {
    '@context': 'https://schema.org',
    '@type': pageType,
    isAccessibleForFree: false,
    hasPart: { '@type': 'WebPageElement', isAccessibleForFree: false, cssSelector: `.${PAID_CLASS}` },
  };
  const script = `<script type="application/ld+json" data-gatehouse="structured-data">${JSON.stringify(markup)}</script>`;
  const head = html.search(/<\/head\s*>/i);
  return head === -1 ? script + html : html.slice(0, head) + script + html.slice(head);
}
