import type { BrandingConfiguration, OfferedPriceView } from '@gatehouse/contracts';
import type { AccessResult, Gatehouse, GatehouseError } from '@gatehouse/sdk';

/*
 * The elements talk to the browser SDK (@gatehouse/sdk) through its global `window.gatehouse`,
 * the object the SDK's script installs: they never reach the API on their own.
 */

/** The browser SDK's client, as `window.gatehouse` holds it once its script ran. */
export type Sdk = Gatehouse;
export type { AccessResult };

type Command = [string, ...unknown[]] | ((sdk: Sdk) => unknown);

let ready: Promise<Sdk> | undefined;
let started: Sdk | undefined;

/**
 * The SDK once it is initialised: a function pushed on `window.gatehouse` (the queue before the
 * SDK's script runs, the client after) is called with the client after its `init`.
 */
export function whenSdk(): Promise<Sdk> {
  ready ??= new Promise((resolve) => {
    const queue = ((window as unknown as { gatehouse?: { push(command: Command): void } }).gatehouse ??= [] as Command[]);
    queue.push((sdk: Sdk) => resolve((started = sdk)));
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

let prices: Promise<OfferedPriceView[]> | undefined;

/** The publication's prices on sale: one request per page, shared by every paywall element. */
export function offeredPrices(): Promise<OfferedPriceView[]> {
  prices ??= whenSdk()
    .then((sdk) => sdk.getPrices())
    .catch(() => []);
  return prices;
}

let lastAccess: AccessResult | null = null;
const accessListeners = new Set<(result: AccessResult | null) => void>();
let listening = false;

/** Calls `listener` with the page's access result now (when known) and on every later check. */
export function onAccess(listener: (result: AccessResult | null) => void): () => void {
  accessListeners.add(listener);
  if (lastAccess) listener(lastAccess);
  if (!listening) {
    listening = true;
    void whenSdk().then((sdk) => {
      sdk.on('access', publishAccess);
      if (sdk.lastAccess && lastAccess !== sdk.lastAccess) publishAccess(sdk.lastAccess);
    });
  }
  return () => accessListeners.delete(listener);
}

function publishAccess(result: AccessResult): void {
  lastAccess = result;
  for (const listener of accessListeners) listener(result);
}

/** Checks the page again (after a login, a newsletter sign-up or a data form): the listeners hear the result. */
export async function recheckAccess(): Promise<AccessResult> {
  return (await whenSdk()).checkAccess();
}

/** The SDK's `ACCESS_TIMEOUT_MS` (a unit test keeps the two equal): how long gated content waits for a decision. */
export const ACCESS_TIMEOUT_MS = 8_000;

/** Whether the SDK has started on this page (its own `accessTimeoutMs` then bounds the wait for a decision). */
export const sdkStarted = (): boolean => started !== undefined;

/** What a failure says: a GatehouseError's problem details, or nothing usable. */
export function errorOf(err: unknown): Partial<Pick<GatehouseError, 'code' | 'status' | 'detail' | 'errors'>> {
  return typeof err === 'object' && err !== null ? (err as GatehouseError) : {};
}
