import type { BrandingConfiguration } from '@gatehouse/contracts';
import { LitElement, css, html, nothing, type CSSResultGroup, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { textColorOn } from './contrast';
import { COPY_FIELDS, attributeOf, resolveCopy, type CopyField, type ElementName } from './copy';
import { fill, loadMessages, messagesFor, type Messages } from './messages';
import { errorOf, fetchedBranding, whenSdk, type Sdk } from './sdk';
import { applicableConfiguration, resolveTheme, themeDeclarations, type BrandingValues } from './theme';

/** The branding fields every element takes as attributes, besides its own copy fields. */
const STYLE_FIELDS = ['brandColor', 'brandColorHover', 'borderRadius', 'fontFamily', 'logoUrl'] as const;

export const sharedStyles = css`
  :host {
    display: block;
    color: #1f2330;
    line-height: 1.5;
    font-size: 16px;
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  .root {
    font-family: var(--gh-font);
    max-width: 100%;
    text-align: start;
  }
  .probe {
    display: none;
  }
  .logo {
    display: block;
    max-height: 40px;
    max-width: 160px;
    margin-block-end: 12px;
  }
  h2 {
    font-size: 1.35rem;
    line-height: 1.25;
    margin: 0 0 8px;
  }
  p {
    margin: 0 0 12px;
  }
  .muted {
    color: #4a5060;
  }
  form {
    display: grid;
    gap: 12px;
  }
  label {
    display: block;
    font-weight: 600;
    font-size: 0.9rem;
    margin-block-end: 4px;
  }
  input,
  select {
    width: 100%;
    font: inherit;
    color: inherit;
    padding: 10px 12px;
    border: 1px solid #6b7080;
    border-radius: var(--gh-radius);
    background: #fff;
  }
  input[aria-invalid='true'] {
    border-color: #b3261e;
  }
  .field-error,
  .form-error {
    color: #b3261e;
    font-size: 0.9rem;
    margin: 4px 0 0;
  }
  .form-error:empty,
  .field-error:empty {
    display: none;
  }
  [part~='primary-button'] {
    display: inline-block;
    width: 100%;
    min-height: 44px;
    padding: 10px 18px;
    border: 0;
    border-radius: var(--gh-radius);
    background: var(--gh-primary);
    color: var(--gh-on-primary, #fff);
    font-family: var(--gh-font);
    font-size: 1rem;
    font-weight: 600;
    cursor: pointer;
  }
  [part~='primary-button']:hover {
    background: var(--gh-primary-hover);
    color: var(--gh-on-primary-hover, #fff);
  }
  [part~='primary-button'][disabled] {
    opacity: 0.7;
    cursor: progress;
  }
  .link {
    font: inherit;
    background: none;
    border: 0;
    padding: 0;
    color: inherit;
    text-decoration: underline;
    cursor: pointer;
  }
  :focus-visible {
    outline: 2px solid #fff;
    box-shadow: 0 0 0 4px #1f2330;
  }
  input:focus-visible,
  select:focus-visible {
    outline: 2px solid #1f2330;
    outline-offset: 1px;
    box-shadow: none;
  }
  .close {
    position: absolute;
    inset-block-start: 8px;
    inset-inline-end: 8px;
    width: 44px;
    height: 44px;
    border: 0;
    background: none;
    font-size: 1.5rem;
    line-height: 1;
    color: inherit;
    cursor: pointer;
    border-radius: var(--gh-radius);
  }
`;

export type AuthMode = 'login' | 'register';

interface FormState {
  fieldErrors: Record<string, string>;
  formError: string;
  busy: boolean;
}

/**
 * What every element shares: the branding attributes, the one fetched configuration, the theme's
 * precedence resolved into internal custom properties, readable text on the primary colour,
 * `customCss` in custom mode, the locale's messages and the form plumbing.
 */
export abstract class GatehouseElement extends LitElement {
  static elementName: ElementName;
  static override styles: CSSResultGroup = sharedStyles;

  /** The branding attributes of an element: the style fields and its own copy fields (J2). */
  static brandingProperties(name: ElementName): PropertyDeclarations {
    return Object.fromEntries([...STYLE_FIELDS, ...COPY_FIELDS[name]].map((field) => [field, { type: String, attribute: attributeOf(field) }]));
  }

  static override properties: PropertyDeclarations = {
    fetched: { state: true },
    onPrimary: { state: true },
    onPrimaryHover: { state: true },
    form: { state: true },
    customCss: { type: String, attribute: 'custom-css' },
  };

  declare fetched: BrandingConfiguration | null | undefined;
  /** CSS given on the element (the dashboard's preview of unsaved custom CSS): it outranks the fetched `customCss`, as attributes do. */
  declare customCss: string | undefined;
  declare onPrimary: string;
  declare onPrimaryHover: string;
  declare form: FormState;
  private customSheet?: CSSStyleSheet;

  constructor() {
    super();
    this.fetched = undefined;
    this.onPrimary = '';
    this.onPrimaryHover = '';
    this.form = { fieldErrors: {}, formError: '', busy: false };
  }

  get elementName(): ElementName {
    return (this.constructor as typeof GatehouseElement).elementName;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Defaults first; the configuration re-renders every element when it arrives (spec 8.1).
    void fetchedBranding().then((configuration) => (this.fetched = configuration));
  }

  /** The branding values given as attributes on this element. */
  protected attributeValues(): BrandingValues {
    const values: BrandingValues = {};
    const self = this as unknown as Record<string, string | null | undefined>;
    for (const field of [...STYLE_FIELDS, ...COPY_FIELDS[this.elementName]]) values[field] = self[field];
    return values;
  }

  /** The language the element speaks: its `lang`, an ancestor's, the page's; English without one. */
  protected get locale(): string {
    return this.closest('[lang]')?.getAttribute('lang') || document.documentElement.lang || 'en';
  }

  protected get messages(): Messages {
    return messagesFor(this.locale);
  }

  /** The first render waits for the locale's table, so a reader never sees English flash first. */
  protected override scheduleUpdate(): void | Promise<unknown> {
    const table = loadMessages(this.locale);
    return table ? table.then(() => super.scheduleUpdate()) : super.scheduleUpdate();
  }

  protected get direction(): 'ltr' | 'rtl' {
    const dir = this.closest('[dir]')?.getAttribute('dir');
    return dir === 'rtl' || dir === 'ltr' ? dir : this.messages.dir;
  }

  /** The copy for a field this element shows, else the message table's default. */
  protected copy(field: Exclude<CopyField, 'meterNoticeText'>, ruleCopy?: Parameters<typeof resolveCopy>[4]): string {
    return resolveCopy(this.elementName, field, this.attributeValues(), this.fetched, ruleCopy) ?? this.messages[field];
  }

  protected logo(): TemplateResult | typeof nothing {
    const url = this.attributeValues().logoUrl || applicableConfiguration(this.fetched).logoUrl;
    return url ? html`<img class="logo" part="logo" src=${url} alt="" />` : nothing;
  }

  /** The themed wrapper every element renders its content in. */
  protected frame(content: TemplateResult, extraClass = ''): TemplateResult {
    const theme = themeDeclarations(resolveTheme(this.attributeValues(), this.fetched));
    const on = `--gh-on-primary: ${this.onPrimary || '#fff'}; --gh-on-primary-hover: ${this.onPrimaryHover || '#fff'}`;
    return html`<div class="root ${extraClass}" part="container" dir=${this.direction} style="${theme}; ${on}">
      <span class="probe primary" style="color: var(--gh-primary)"></span><span class="probe hover" style="color: var(--gh-primary-hover)"></span>
      ${content}
    </div>`;
  }

  protected override updated(_changed?: PropertyValues): void {
    // Text on the primary colour: black or white, whichever reads better on the colour as resolved.
    const colorOf = (selector: string) => {
      const probe = this.renderRoot.querySelector(selector);
      return probe ? getComputedStyle(probe).color : '';
    };
    const onPrimary = textColorOn(colorOf('.probe.primary'));
    const onHover = textColorOn(colorOf('.probe.hover'));
    if (onPrimary !== this.onPrimary) this.onPrimary = onPrimary;
    if (onHover !== this.onPrimaryHover) this.onPrimaryHover = onHover;
    this.applyCustomCss();
  }

  /** `customCss` of custom mode, after the element's own styles so it wins at equal specificity. */
  private applyCustomCss(): void {
    const root = this.shadowRoot;
    if (!root) return;
    const cssText = this.customCss ?? (this.fetched?.brandingMode === 'custom' ? (this.fetched.customCss ?? '') : '');
    if (!this.customSheet && !cssText) return;
    this.customSheet ??= new CSSStyleSheet();
    this.customSheet.replaceSync(cssText);
    confine(this.customSheet.cssRules);
    if (!root.adoptedStyleSheets.includes(this.customSheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.customSheet];
  }

  protected emit(name: string, detail: unknown = {}, cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }

  // Forms

  protected field(name: string, label: string, type: string, autocomplete: string, required = true): TemplateResult {
    const error = this.form.fieldErrors[name] ?? '';
    return html`<div class="field">
      <label for=${name} part="label">${label}</label>
      <input
        id=${name}
        name=${name}
        type=${type}
        autocomplete=${autocomplete}
        part="input"
        ?required=${required}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby="${name}-error"
      />
      <p id="${name}-error" class="field-error" part="field-error">${error}</p>
    </div>`;
  }

  protected formFooter(label: string): TemplateResult {
    return html`<p class="form-error" part="form-error" role="alert">${this.form.formError}</p>
      <button type="submit" part="primary-button" ?disabled=${this.form.busy}>${this.form.busy ? this.messages.working : label}</button>`;
  }

  /** Runs a form's action: field errors of the problem details beside their fields, any other error in the form, all in the reader's words. */
  protected async submitting(action: (sdk: Sdk) => Promise<unknown>): Promise<boolean> {
    if (this.form.busy) return false;
    this.form = { fieldErrors: {}, formError: '', busy: true };
    try {
      await action(await whenSdk());
      this.form = { fieldErrors: {}, formError: '', busy: false };
      return true;
    } catch (err) {
      this.form = { ...this.problemText(errorOf(err)), busy: false };
      await this.updateComplete;
      (this.renderRoot.querySelector('[aria-invalid="true"]') as HTMLElement | null)?.focus();
      return false;
    }
  }

  /**
   * A refusal in the catalogue's words (docs/elements.md, "Messages"): the service's codes and the
   * fields it names map to messages, its own English is never shown. An error the element made
   * itself (no `code`) is in those words already.
   */
  private problemText(problem: ReturnType<typeof errorOf>): Omit<FormState, 'busy'> {
    const m = this.messages;
    const inputs = new Map([...this.renderRoot.querySelectorAll('input')].map((input) => [input.name, input]));
    const label = (name: string) => inputs.get(name)?.labels?.[0]?.textContent?.trim() || name;
    const FIELD: Record<string, string> = { email: m.invalidEmail, password: m.passwordRule, name: m.nameRule, code: m.codeInvalid };
    const CODE: Partial<Record<string, [string, string?]>> = {
      email_taken: [m.emailTaken, 'email'],
      invalid_credentials: [m.invalidCredentials],
      registration_closed: [m.registrationClosed],
      rate_limited: [m.tooMany],
      code_invalid: [m.codeInvalid, 'code'],
      email_token_invalid: [m.linkInvalid],
      token_invalid: [m.signInAgain],
      token_expired: [m.signInAgain],
      refresh_token_invalid: [m.signInAgain],
      customer_token_required: [m.signInAgain],
      processor_error: [m.paymentFailed],
    };
    const fieldErrors: Record<string, string> = {};
    const loose: string[] = [];
    const place = (name: string, text: string) => {
      if (inputs.has(name)) fieldErrors[name] ??= text;
      else if (!loose.includes(text)) loose.push(text);
    };
    for (const error of problem.errors ?? []) {
      const name = error.field.replace(/^data\./, '');
      const text = FIELD[name] ?? (inputs.get(name)?.type === 'email' ? m.invalidEmail : fill(m.invalidValue, { field: label(name) }));
      place(name, problem.code ? text : error.message);
    }
    const known = problem.code && CODE[problem.code];
    if (known) place(known[1] ?? '', known[0]);
    const formError =
      loose.join(' ') ||
      (Object.keys(fieldErrors).length ? '' : !problem.status || problem.status >= 500 ? m.unreachable : problem.code ? m.failed : (problem.detail ?? m.failed));
    return { fieldErrors, formError };
  }

  protected formValues(form: HTMLFormElement): Record<string, string> {
    const values: Record<string, string> = {};
    for (const [key, value] of new FormData(form)) values[key] = String(value);
    return values;
  }

  /** A login or registration form's fields and submit button. */
  protected authForm(mode: AuthMode): TemplateResult {
    const m = this.messages;
    return html`<form part="form" novalidate @submit=${(event: SubmitEvent) => this.submitAuth(mode, event)}>
      ${mode === 'register' ? this.field('name', m.name, 'text', 'name') : nothing} ${this.field('email', m.email, 'email', 'email')}
      ${this.field('password', m.password, 'password', mode === 'login' ? 'current-password' : 'new-password')}
      ${this.formFooter(mode === 'login' ? m.signIn : m.createAccount)}
    </form>`;
  }

  private async submitAuth(mode: AuthMode, event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const values = this.formValues(event.target as HTMLFormElement);
    let result: unknown;
    const done = await this.submitting(async (sdk) => {
      result = mode === 'login' ? await sdk.login({ email: values['email'], password: values['password'] }) : await sdk.register({ email: values['email'], password: values['password'], name: values['name'] });
    });
    if (done) this.authenticated(mode, result);
  }

  /** After a successful login or registration: the DOM event (`login` or `register`). */
  protected authenticated(mode: AuthMode, result: unknown): void {
    this.emit(mode, { customer: (result as { customer?: unknown } | undefined)?.customer ?? null });
  }
}

/** The element under the document's focus, looking through shadow roots. */
export function deepActiveElement(): HTMLElement | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active as HTMLElement | null;
}

/** Keeps Tab and Shift+Tab inside `container` (a modal dialog). */
export function trapFocus(event: KeyboardEvent, container: HTMLElement): void {
  if (event.key !== 'Tab') return;
  const focusable = [...container.querySelectorAll<HTMLElement>('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])')].filter(
    (el) => !el.hasAttribute('disabled') && el.getClientRects().length > 0,
  );
  if (focusable.length === 0) return;
  const root = container.getRootNode() as ShadowRoot;
  const current = root.activeElement;
  const [first, last] = [focusable[0], focusable[focusable.length - 1]];
  if (event.shiftKey && (current === first || !container.contains(current))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (current === last || !container.contains(current))) {
    event.preventDefault();
    first.focus();
  }
}

/** What would move the component's own box: the server refuses it in custom CSS, and the element drops it from what it still gets (a preview, an older row). */
const HOST_PLACEMENT = ['position', 'inset', 'inset-block', 'inset-inline', 'top', 'right', 'bottom', 'left', 'z-index', 'float', 'transform', 'translate', 'scale', 'rotate', 'margin', 'margin-block', 'margin-inline'];

/** Keeps custom CSS inside the component's box (docs/branding.md, "Custom CSS"), read as the browser parsed it. */
function confine(rules: CSSRuleList): void {
  for (const rule of Array.from(rules)) {
    if (rule instanceof CSSStyleRule) {
      if (/^(fixed|absolute)$/i.test(rule.style.position)) rule.style.removeProperty('position');
      if (rule.selectorText.includes(':host')) for (const property of HOST_PLACEMENT) rule.style.removeProperty(property);
    }
    if ('cssRules' in rule) confine((rule as CSSGroupingRule).cssRules);
  }
}

