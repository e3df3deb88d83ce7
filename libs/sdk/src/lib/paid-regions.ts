/** Where `@gatehouse/node` removed a paid region for a reader it denied, it leaves an element with this marker. */
const STAND_IN = '[data-gatehouse="paywall"]';
const PAID = '[data-gatehouse="paid"]';

/** A page whose paid regions the publisher's server may have cut out (docs/server.md). */
export interface ServerRegions {
  /** Whether the server left offers in place of paid regions on this page. */
  cut(): boolean;
  /** Asks for the page again and puts its paid regions in place of the offers; false when the server still holds them back. */
  restore(): Promise<boolean>;
}

/**
 * The page as the browser has it. When a decision grants a page the server cut (the reader just
 * signed in, subscribed or passed a wall here, or the token cookie had expired when the page was
 * asked for), the page is fetched again, the cookie now naming the reader, and its paid regions
 * replace the offers in order: no reload. Scripts inside a paid region do not run.
 */
export function documentRegions(doc: Document, fetchPage: () => Promise<Response>): ServerRegions {
  return {
    cut: () => doc.querySelector(STAND_IN) !== null,
    async restore() {
      const standIns = doc.querySelectorAll(STAND_IN);
      if (standIns.length === 0) return true;
      const response = await fetchPage();
      if (!response.ok) return false;
      const regions = new DOMParser().parseFromString(await response.text(), 'text/html').querySelectorAll(PAID);
      if (regions.length !== standIns.length) return false;
      standIns.forEach((standIn, i) => standIn.replaceWith(doc.importNode(regions[i], true)));
      return true;
    },
  };
}
