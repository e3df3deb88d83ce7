import type { Environment } from './gatehouse';
import { documentRegions } from './paid-regions';

/** The real browser behind `Environment`. */
export function browserEnvironment(): Environment {
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
  } catch {
    // blocked by the reader's settings: tokens live in memory for this page
  }
  const locks = typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
  return {
    fetch: (input, init) => fetch(input, init),
    storage,
    locks: locks && { request: (name, callback) => locks.request(name, callback) },
    timers: { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as number) },
    now: () => Date.now(),
    location: window.location,
    replaceUrl: (url) => history.replaceState(history.state, '', url),
    referrer: document.referrer,
    randomId: () => (crypto.randomUUID ? crypto.randomUUID() : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')),
    listen: (type, listener) => (type === 'visibilitychange' ? document : window).addEventListener(type, listener),
    hidden: () => document.visibilityState === 'hidden',
    setCookie: (cookie) => {
      document.cookie = cookie;
    },
    serverRegions: documentRegions(document, () => fetch(window.location.href, { headers: { Accept: 'text/html' }, cache: 'no-store' })),
    warn: (message, error) => console.warn(message, error ?? ''),
  };
}
