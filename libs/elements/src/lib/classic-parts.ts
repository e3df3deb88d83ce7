import type { html as litHtml } from 'lit';
import type { AccountElementParts } from './account';
import type { GatehouseElement } from './base';

/*
 * What a classic script that adds elements to elements.js builds on (account.js, gift.js): no lit
 * and no base element of its own, but those of elements.js, which it loads from beside itself
 * when the page has no tag for it (with the same data attributes, so one tag is enough).
 */

/** lit's `html` tag: a template result is the strings and values marked as HTML (lit-html's `_$litType$` 1). */
const html = ((strings: TemplateStringsArray, ...values: unknown[]) => ({ ['_$litType$']: 1, strings, values })) as unknown as typeof litHtml;
/** lit's `nothing` (a registered symbol, the same in every copy of lit). */
const nothing = Symbol.for('lit-nothing') as never;

const BASE_TAG = 'gatehouse-register-form';

/** Calls `start` with elements.js's base element and lit once elements.js has defined its tags; `self` is the calling script's tag. */
export function onElements(self: HTMLScriptElement | null, start: (parts: AccountElementParts) => void): void {
  const go = () => start({ Base: Object.getPrototypeOf(customElements.get(BASE_TAG)) as typeof GatehouseElement, html, nothing });
  if (customElements.get(BASE_TAG)) return go();
  void customElements.whenDefined(BASE_TAG).then(go);
  if (!document.querySelector('script[src*="/elements.js"]') && self?.src) {
    const script = document.createElement('script');
    script.src = new URL('elements.js', self.src).href;
    script.async = true;
    for (const [key, value] of Object.entries(self.dataset)) script.dataset[key] = value;
    document.head.append(script);
  }
}
