import { browserEnvironment } from './lib/browser';
import { Gatehouse, type Command } from './lib/gatehouse';

/*
 * The classic script: `<script src="{base}/sdk/v1/gatehouse.js" data-publishable-key="pk_…" async>`.
 * It starts itself from the tag's data attributes, then runs what the page queued on
 * `window.gatehouse` before it loaded, and replaces that array with the client itself (whose
 * `push` runs later calls at once).
 */
declare global {
  interface Window {
    gatehouse?: Command[] | Gatehouse;
  }
}

const script = document.currentScript as HTMLScriptElement | null;
const queued = Array.isArray(window.gatehouse) ? window.gatehouse : [];

if (!(window.gatehouse instanceof Gatehouse) && !(window.gatehouse && 'checkAccess' in window.gatehouse)) {
  const gatehouse = new Gatehouse(browserEnvironment());
  window.gatehouse = gatehouse;
  const data = script?.dataset ?? {};
  const origin = script?.src ? new URL(script.src).origin : undefined;
  for (const command of queued) {
    // `init` from the queue (a tag without a key): the script's own origin unless it names one.
    if (Array.isArray(command) && command[0] === 'init' && origin) command[1] = { baseUrl: origin, ...(command[1] as object) };
    gatehouse.push(command);
  }
  const key = data['publishableKey'];
  if (key) {
    gatehouse.push([
      'init',
      {
        publishableKey: key,
        baseUrl: data['baseUrl'] ?? origin,
        failMode: data['failMode'] === 'closed' ? 'closed' : 'open',
        autoPageview: data['autoPageview'] !== 'false',
        autoCheckAccess: data['autoCheckAccess'] !== 'false',
        tokenCookie: data['tokenCookie'] === 'false' ? false : data['tokenCookie'],
        accessTimeoutMs: Number(data['accessTimeout']),
      },
    ]);
  }
}
