import { generate, parse, property as parseProperty, walk, type CssNode, type List } from 'css-tree';
import { hostInDomains } from './domains';

/** What may not position the component's own box: the host stays where the page put it. */
const HOST_PLACEMENT = new Set([
  'position',
  'inset',
  'inset-block',
  'inset-inline',
  'inset-block-start',
  'inset-block-end',
  'inset-inline-start',
  'inset-inline-end',
  'top',
  'right',
  'bottom',
  'left',
  'z-index',
  'float',
  'transform',
  'translate',
  'scale',
  'rotate',
  'margin',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'margin-block',
  'margin-inline',
  'margin-block-start',
  'margin-block-end',
  'margin-inline-start',
  'margin-inline-end',
]);

export interface CustomCssReview {
  /** What the CSS may not do, one line each; empty when it is acceptable. */
  problems: string[];
  /** The CSS without what it may not do. */
  confined: string;
}

/**
 * Branding's custom CSS runs in every reader's browser, inside each component's shadow root: it
 * may style the component's contents, but not move the component's own box (`:host` placement,
 * margins, transforms), not take anything out of that box (`position: fixed` or `absolute`), and not make
 * the browser fetch from another site (`@import`, `url()` on a host not of the publication's
 * domains; relative and `data:` URLs stay on the page). Parsed with css-tree, so escapes and
 * comments cannot hide a property.
 */
export function reviewCustomCss(css: string, domains: readonly string[]): CustomCssReview {
  const problems: string[] = [];
  let ast: CssNode;
  try {
    ast = parse(css, { onParseError: () => undefined });
  } catch {
    return { problems: ['is not CSS that can be read'], confined: '' };
  }
  const removed = new Set<unknown>();
  const refuse = (problem: string, item: unknown, list: List<CssNode> | null | undefined) => {
    if (!problems.includes(problem)) problems.push(problem);
    if (list && !removed.has(item)) list.remove(item as never);
    removed.add(item);
  };
  walk(ast, {
    visit: 'Atrule',
    enter(node, item, list) {
      if (node.name.toLowerCase() === 'import') refuse('@import is not allowed', item, list);
    },
  });
  walk(ast, {
    visit: 'Rule',
    enter(rule) {
      const selector = generate(rule.prelude).toLowerCase();
      const onHost = selector.includes(':host');
      walk(rule.block, {
        visit: 'Declaration',
        enter(declaration, item, list) {
          const name = parseProperty(unescapeCss(declaration.property).toLowerCase()).basename;
          const value = unescapeCss(generate(declaration.value)).toLowerCase();
          if (name === 'position' && /\b(fixed|absolute)\b/.test(value)) refuse(`position: ${value} takes an element out of the component's box`, item, list);
          else if (onHost && HOST_PLACEMENT.has(name)) refuse(`${name} on :host moves the component's own box`, item, list);
        },
      });
    },
  });
  walk(ast, {
    visit: 'Declaration',
    enter(declaration, item, list) {
      walk(declaration.value, {
        visit: 'Url',
        enter(url) {
          const host = foreignHost(url.value, domains);
          if (host !== null) refuse(`url() on ${host} is not one of the publication's domains`, item, list);
        },
      });
    },
  });
  return { problems, confined: problems.length === 0 ? css : generate(ast) };
}

/** CSS escapes decoded (`pos\\ition` is `position` to a browser). */
function unescapeCss(text: string): string {
  return text.replace(/\\([0-9a-f]{1,6})\s?|\\(.)/gi, (_, hex: string | undefined, char: string | undefined) => (hex ? String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff) || 0xfffd) : (char ?? '')));
}

/** The host a URL would fetch from when it is not the page's own nor a publication domain; null otherwise. */
function foreignHost(raw: string, domains: readonly string[]): string | null {
  const value = raw.trim();
  if (/^data:/i.test(value)) return null;
  if (!/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(value)) return null;
  try {
    const url = new URL(value, 'https://relative.invalid/');
    if ((url.protocol === 'https:' || url.protocol === 'http:') && hostInDomains(url.hostname, domains)) return null;
    return url.hostname || value;
  } catch {
    return value;
  }
}
