import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queries } from '../api/queries';
import type { BrandingConfiguration, PaywallPresentation, PaywallType, WALL_COPY } from '@gatehouse/contracts';
import type { BrandingForm } from './branding';
import { darker, HEX_COLOUR } from '../lib/colour';

const ELEMENTS_SCRIPT = '/sdk/v1/elements.js';
type ElementsState = 'loading' | 'ready' | 'unavailable';
let elementsLoad: Promise<ElementsState> | undefined;

/**
 * Loads the real web components once per page. The page has no `gatehouse.js`, so they never call
 * the API: the previews render them with `preview` (docs/elements.md) and the values as attributes.
 */
function loadElements(): Promise<ElementsState> {
  elementsLoad ??= new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = ELEMENTS_SCRIPT;
    script.onload = () => void customElements.whenDefined('gatehouse-login-form').then(() => resolve('ready'));
    script.onerror = () => resolve('unavailable');
    document.head.append(script);
  });
  return elementsLoad;
}

/** The state of the web components on this page; loads them on first use. */
export function useElements(): ElementsState {
  const [elements, setElements] = useState<ElementsState>('loading');
  useEffect(() => {
    let live = true;
    void loadElements().then((state) => live && setElements(state));
    return () => {
      live = false;
    };
  }, []);
  return elements;
}

/** What the preview says instead of the components while they load, or when the gateway lacks them. */
export function ElementsMissing({ state }: { state: ElementsState }) {
  return (
    <p className="mt-1 text-xs text-slate-600">
      {state === 'loading' ? 'Loading the web components…' : 'No preview: this gateway does not serve the web components (/sdk/v1/elements.js); run npm run build:web.'}
    </p>
  );
}

type OfferedPrice = { id: string; currency: string; unitAmount: number; interval: string; trialDays: number; productName: string };

/**
 * The publication's prices as readers' paywalls offer them (`GET /api/v1/prices`: the active prices
 * of active products, cheapest first), for the paywalls' `prices` property; undefined while loading.
 */
export function useOfferedPrices(): OfferedPrice[] | undefined {
  const products = useQuery(queries.products());
  const active = (products.data ?? []).filter((product) => product.active);
  const prices = useQueries({ queries: active.map((product) => queries.prices(product.id)) });
  if (!products.data || prices.some((query) => !query.data)) return undefined;
  return prices
    .flatMap((query, i) =>
      (query.data ?? []).filter((price) => price.active).map(({ id, currency, unitAmount, interval, trialDays }) => ({ id, currency, unitAmount, interval, trialDays, productName: active[i].name })),
    )
    .sort((a, b) => a.unitAmount - b.unitAmount);
}

/** Whose copy attributes a wall of each type reads (the contracts' table; the dashboard imports only types from there). */
const WALL: typeof WALL_COPY = { hard: 'paywall', metered: 'paywall', soft: 'soft', registration: 'registration', newsletter: 'newsletter', data: 'data' };

const kebab = (field: string) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The unsaved values as the elements' attributes, which outrank the fetched configuration (spec
 * 8.1); in generic mode none are set, as the saved configuration would not apply either
 * (decisions J2). Custom CSS goes in as the `custom-css` attribute in custom mode only, as readers get it.
 */
function attributesOf(values: BrandingForm | BrandingConfiguration): Record<string, string> {
  if (values.brandingMode === 'generic') return {};
  const attributes: Record<string, string> = {};
  for (const [field, value] of Object.entries(values)) {
    if (field === 'brandingMode' || field === 'customCss' || value === '' || value === null) continue;
    attributes[kebab(field)] = `${value}`;
  }
  if (!attributes['brand-color-hover'] && HEX_COLOUR.test(values.brandColor ?? '')) attributes['brand-color-hover'] = darker(values.brandColor ?? '');
  if (values.brandingMode === 'custom' && values.customCss) attributes['custom-css'] = values.customCss;
  return attributes;
}

export function BrandingPreview({ values }: { values: BrandingForm }) {
  const elements = useElements();
  const attributes = attributesOf(values);
  // A property (React 19 sets known properties), not a JSON attribute.
  const prices = useOfferedPrices();

  return (
    <section aria-labelledby="preview-heading" data-testid="branding-preview" data-elements={elements} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="preview-heading" className="text-base font-semibold">Preview</h2>
      {elements === 'ready' ? (
        <div className="mt-3 space-y-4">
          <gatehouse-login-form {...attributes} />
          <gatehouse-inline-paywall {...attributes} preview="hard" prices={prices} />
          <gatehouse-sticky-bar {...attributes} preview="hard" prices={prices} />
        </div>
      ) : (
        <ElementsMissing state={elements} />
      )}
    </section>
  );
}

/** The element readers see for each presentation; a modal's content shows inline, not over the dashboard. */
const PRESENTATION_ELEMENT = { modal: 'gatehouse-inline-paywall', inline: 'gatehouse-inline-paywall', sticky_bar: 'gatehouse-sticky-bar', content_lock: 'gatehouse-content-lock' } as const;

/**
 * The paywall editor's preview: the real element of the presentation in `preview` mode with the
 * unsaved type and copy over the saved branding (a rule's copy beats the branding's, spec 8.1).
 */
export function PaywallPreview({ type, presentation, copy }: { type: PaywallType; presentation: PaywallPresentation; copy: { heading: string; description: string; ctaText: string } }) {
  const elements = useElements();
  const branding = useQuery(queries.branding());
  const prices = useOfferedPrices();
  const attributes = branding.data ? attributesOf(branding.data.configuration) : {};
  const wall = WALL[type];
  if (copy.heading) attributes[`${wall}-heading`] = copy.heading;
  if (copy.description) attributes[`${wall}-description`] = copy.description;
  if (copy.ctaText) attributes[`${wall}-cta-text`] = copy.ctaText;
  const Element = PRESENTATION_ELEMENT[presentation];

  return (
    <section aria-label="Preview" data-testid="paywall-preview" data-elements={elements} className="rounded-md border border-slate-200 bg-slate-50 p-3">
      <h3 className="text-sm font-medium">As the reader sees it{presentation === 'modal' ? ' (in a dialog over the page)' : ''}</h3>
      {elements === 'ready' ? (
        <div className="mt-2">
          <Element key={`${Element}:${type}`} {...attributes} preview={type} prices={prices} />
        </div>
      ) : (
        <ElementsMissing state={elements} />
      )}
    </section>
  );
}
