import type { AccessCheckResult, BrandingConfiguration, FieldError, TrackEventType } from '@gatehouse/contracts';

/*
 * The elements talk to the browser SDK (@gatehouse/sdk) through its global `window.gatehouse`,
 * the object the SDK's script installs: they never reach the API on their own. This is the part
 * of its surface they use.
 */

export interface SdkError {
  code?: string;
  status?: number;
  detail?: string;
  errors?: FieldError[];
}

export interface CheckoutOptions {
  priceId: string;
  successUrl: string;
  cancelUrl: string;
  experimentId?: string;
  variantId?: string;
}

export interface Sdk {
  getBranding(): Promise<BrandingConfiguration>;
  checkAccess(url?: string): Promise<AccessCheckResult>;
  register(input: { email: string; password: string; name: string }): Promise<unknown>;
  login(input: { email: string; password: string }): Promise<unknown>;
  getSession(): unknown;
  trackEvent(type: TrackEventType, fields?: Record<string, unknown>): unknown;
  flush?(): Promise<unknown>;
  checkout(options: CheckoutOptions): Promise<unknown>;
  on(event: 'access', listener: (result: AccessCheckResult) => void): unknown;
  /** The page's last access result, when the SDK already checked before the elements listened. */
  lastAccess?: AccessCheckResult | null;
}

declare global {
  interface Window {
    gatehouse?: Sdk | unknown[];
  }
}

const isSdk = (value: unknown): value is Sdk => typeof (value as Sdk | undefined)?.getBranding === 'function';

let ready: Promise<Sdk> | undefined;

/** The SDK once its script has run (it may load after the elements, or be loaded by them). */
export function whenSdk(): Promise<Sdk> {
  ready ??= new Promise((resolve) => {
    const poll = () => (isSdk(window.gatehouse) ? resolve(window.gatehouse) : setTimeout(poll, 25));
    poll();
  });
  return ready;
}

let branding: Promise<BrandingConfiguration | null> | undefined;

/** The publication's branding: one request per page (spec 8.1), shared by every element. */
export function fetchedBranding(): Promise<BrandingConfiguration | null> {
  branding ??= whenSdk()
    .then((sdk) => sdk.getBranding())
    .catch(() => null);
  return branding;
}

let lastAccess: AccessCheckResult | null = null;
const accessListeners = new Set<(result: AccessCheckResult | null) => void>();
let listening = false;

/** Calls `listener` with the page's access result now (when known) and on every later check. */
export function onAccess(listener: (result: AccessCheckResult | null) => void): () => void {
  accessListeners.add(listener);
  if (lastAccess) listener(lastAccess);
  if (!listening) {
    listening = true;
    void whenSdk().then((sdk) => {
      sdk.on('access', publishAccess);
      if (!lastAccess && sdk.lastAccess) publishAccess(sdk.lastAccess);
    });
  }
  return () => accessListeners.delete(listener);
}

function publishAccess(result: AccessCheckResult): void {
  lastAccess = result;
  for (const listener of accessListeners) listener(result);
}

/** Checks the page again (after a login, a newsletter sign-up or a data form): the listeners hear the result. */
export async function recheckAccess(): Promise<AccessCheckResult> {
  const sdk = await whenSdk();
  const result = await sdk.checkAccess();
  if (lastAccess !== result) publishAccess(result);
  return result;
}

export function errorOf(err: unknown): SdkError {
  return typeof err === 'object' && err !== null ? (err as SdkError) : {};
}
