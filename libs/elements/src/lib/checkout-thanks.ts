import { css } from 'lit';
import { messagesFor } from './messages';
import { whenSdk } from './sdk';

const toastStyles = css`
  p {
    position: fixed;
    inset-block-start: 16px;
    inset-inline: 16px;
    z-index: 2147483001;
    max-width: 480px;
    margin: 0 auto;
    padding: 12px 16px;
    border-inline-start: 6px solid var(--gatehouse-primary, #6c5ce7);
    border-radius: var(--gatehouse-radius, 8px);
    background: #fff;
    color: #1f2330;
    font: 600 1rem/1.4 var(--gatehouse-font, system-ui), sans-serif;
    box-shadow: 0 8px 24px rgba(0, 0, 0, 0.2);
  }
  p:empty {
    display: none;
  }
`;

let listening = false;

/**
 * Once per page: when the checkout the reader came back from is confirmed, a short word of thanks
 * over the page for 10 seconds, whichever element (if any) is left to show it once the page opened.
 */
export function thankSubscribers(): void {
  if (listening) return;
  listening = true;
  void whenSdk().then((sdk) =>
    sdk.on('checkout', ({ status, purchase }) => {
      if (status !== 'complete') return;
      const host = document.createElement('div');
      const root = host.attachShadow({ mode: 'open' });
      root.adoptedStyleSheets = [toastStyles.styleSheet as CSSStyleSheet];
      const messages = messagesFor(document.documentElement.lang);
      const line = document.createElement('p');
      line.setAttribute('role', 'status');
      line.setAttribute('part', 'confirmation');
      line.dir = messages.dir;
      root.append(line);
      document.body.append(host);
      // Filled once in the page, so that screen readers announce it.
      setTimeout(() => (line.textContent = purchase ? messages.purchased : messages.subscribed), 50);
      setTimeout(() => host.remove(), 10_000);
    }),
  );
}
