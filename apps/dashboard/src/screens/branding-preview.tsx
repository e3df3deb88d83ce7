import { useEffect, useState, type CSSProperties } from 'react';
import type { BrandingForm } from './branding';
import { darker, HEX_COLOUR } from '../lib/colour';

const ELEMENTS_SCRIPT = '/sdk/v1/elements.js';
type ElementsState = 'loading' | 'ready' | 'unavailable';
let elementsLoad: Promise<ElementsState> | undefined;

/** Loads the real web components once per page; a gateway without them leaves the approximation below. */
function loadElements(): Promise<ElementsState> {
  elementsLoad ??= new Promise((resolve) => {
    const script = document.createElement('script');
    script.type = 'module';
    script.src = ELEMENTS_SCRIPT;
    script.onload = () => void customElements.whenDefined('gatehouse-login-form').then(() => resolve('ready'));
    script.onerror = () => resolve('unavailable');
    document.head.append(script);
  });
  return elementsLoad;
}

const kebab = (field: string) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The unsaved values as HTML attributes, which outrank the fetched configuration (spec 8.1); in
 * generic mode none are set, as the saved configuration would not apply either (decisions J2).
 */
function attributesOf(values: BrandingForm): Record<string, string> {
  if (values.brandingMode === 'generic') return {};
  const attributes: Record<string, string> = { 'branding-mode': values.brandingMode };
  for (const [field, value] of Object.entries(values)) {
    if (field === 'brandingMode' || value === '') continue;
    if (field === 'customCss' && values.brandingMode !== 'custom') continue;
    attributes[kebab(field)] = field === 'borderRadius' ? `${value}` : value;
  }
  if (!attributes['brand-color-hover'] && HEX_COLOUR.test(values.brandColor)) attributes['brand-color-hover'] = darker(values.brandColor);
  return attributes;
}

export function BrandingPreview({ values }: { values: BrandingForm }) {
  const [elements, setElements] = useState<ElementsState>('loading');
  useEffect(() => {
    let live = true;
    void loadElements().then((state) => live && setElements(state));
    return () => {
      live = false;
    };
  }, []);
  const attributes = attributesOf(values);

  return (
    <section aria-labelledby="preview-heading" data-testid="branding-preview" data-elements={elements} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="preview-heading" className="text-base font-semibold">Preview</h2>
      {elements === 'ready' ? (
        <div className="mt-3 space-y-4">
          <gatehouse-login-form {...attributes} />
          <gatehouse-inline-paywall {...attributes} />
          <gatehouse-sticky-bar {...attributes} style={{ position: 'static' }} />
        </div>
      ) : (
        <>
          <p className="mt-1 text-xs text-slate-600">
            {elements === 'loading' ? 'Loading the web components…' : 'An approximation: this gateway does not serve the web components (/sdk/v1/elements.js) yet.'}
          </p>
          <Approximation values={values} />
        </>
      )}
    </section>
  );
}

/** The components' look from the same values, for a gateway without the real ones. */
function Approximation({ values }: { values: BrandingForm }) {
  const themed = values.brandingMode !== 'generic';
  const primary = themed && HEX_COLOUR.test(values.brandColor) ? values.brandColor : '#6C5CE7';
  const style = {
    '--gatehouse-primary': primary,
    '--gatehouse-radius': `${themed && values.borderRadius !== '' ? values.borderRadius : 8}px`,
    '--gatehouse-font': themed && values.fontFamily ? values.fontFamily : 'system-ui',
    fontFamily: 'var(--gatehouse-font)',
  } as CSSProperties;
  const text = (value: string, fallback: string) => (themed && value ? value : fallback);
  const button = 'mt-3 w-full px-4 py-2 text-sm font-semibold text-white';
  const buttonStyle: CSSProperties = { background: 'var(--gatehouse-primary)', borderRadius: 'var(--gatehouse-radius)' };
  return (
    <div style={style} className="mt-3 space-y-4 text-slate-900">
      <div className="border border-slate-200 p-4" style={{ borderRadius: 'var(--gatehouse-radius)' }}>
        {themed && values.logoUrl && <img src={values.logoUrl} alt="" className="mb-2 h-8" />}
        <div className="text-lg font-semibold">{text(values.authHeading, 'Sign in')}</div>
        <p className="text-sm text-slate-700">{text(values.authDescription, 'Sign in to keep reading.')}</p>
        <div className="mt-3 space-y-2 text-sm">
          <div className="border border-slate-300 px-3 py-2 text-slate-600" style={{ borderRadius: 'var(--gatehouse-radius)' }}>Email</div>
          <div className="border border-slate-300 px-3 py-2 text-slate-600" style={{ borderRadius: 'var(--gatehouse-radius)' }}>Password</div>
        </div>
        <div part="primary-button" role="presentation" className={button} style={buttonStyle}>
          Sign in
        </div>
      </div>
      <div className="border border-slate-200 p-4" style={{ borderRadius: 'var(--gatehouse-radius)' }}>
        <div className="text-lg font-semibold">{text(values.paywallHeading, 'Subscribe to keep reading')}</div>
        <p className="text-sm text-slate-700">{text(values.paywallDescription, 'Get unlimited access to every article.')}</p>
        <div part="primary-button" role="presentation" className={button} style={buttonStyle}>
          {text(values.paywallCtaText, 'Subscribe')}
        </div>
      </div>
    </div>
  );
}
