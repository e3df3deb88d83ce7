import { css, html, nothing, type PropertyDeclarations, type PropertyValues, type CSSResultGroup } from 'lit';
import { GatehouseElement, deepActiveElement, sharedStyles, trapFocus, type AuthMode } from './base';
import { SignInElement, signInStyles } from './email-paths';
import { recheckAccess, whenSdk } from './sdk';

/**
 * `<gatehouse-login-form>`: email and password, a reset link or a code by email, and the step of
 * an emailed link the page was opened from; fires `login` on success.
 */
export class LoginForm extends SignInElement {
  static override elementName = 'login-form' as const;
  static override properties: PropertyDeclarations = { ...SignInElement.properties, ...GatehouseElement.brandingProperties('login-form') };

  override render() {
    return this.frame(html`${this.logo()} ${this.signInIntro('login')} ${this.signInForm('login')}`);
  }

  /** However the reader signed in here (password, new password, code or link), the form gives way to a confirmation. */
  protected override authenticated(mode: AuthMode, result: unknown): void {
    super.authenticated(mode, result);
    this.showSignedIn(result);
    void recheckAccess().catch(() => undefined);
  }

  protected override openedSignedIn(session: unknown): void {
    this.showSignedIn(session, false);
  }
}

/** `<gatehouse-register-form>`: name, email and password; fires `register` on success. */
export class RegisterForm extends GatehouseElement {
  static override elementName = 'register-form' as const;
  static override properties: PropertyDeclarations = { ...GatehouseElement.properties, ...GatehouseElement.brandingProperties('register-form') };

  override connectedCallback(): void {
    super.connectedCallback();
    // The verification email leads back to this page: with no element here to take up its link, an auth modal does.
    void whenSdk().then((sdk) => {
      if (sdk.readEmailLink() && !document.querySelector('gatehouse-login-form, gatehouse-auth-modal')) pageAuthModal();
    });
  }

  override render() {
    return this.frame(html`${this.logo()}
      <h2 part="heading">${this.copy('authRegisterHeading')}</h2>
      <p part="description" class="muted">${this.copy('authRegisterDescription')}</p>
      ${this.authForm('register')}`);
  }

  protected override authenticated(mode: AuthMode, result: unknown): void {
    super.authenticated(mode, result);
    void recheckAccess().catch(() => undefined);
  }
}

export const dialogStyles = css`
  dialog {
    border: 0;
    padding: 0;
    max-width: min(440px, calc(100vw - 16px));
    width: 100%;
    max-height: calc(100vh - 16px);
    overflow: auto;
    border-radius: var(--gh-radius);
    color: inherit;
    background: #fff;
    box-shadow: 0 12px 40px rgba(0, 0, 0, 0.3);
  }
  dialog::backdrop {
    background: rgba(15, 17, 26, 0.6);
  }
  /* An offer that cannot be closed holds the page alone: nothing of it shows through. */
  dialog.holding::backdrop {
    background: rgba(15, 17, 26, 0.9);
    backdrop-filter: blur(8px);
  }
  .panel {
    position: relative;
    padding: 24px;
  }
  .panel h2 {
    padding-inline-end: 36px;
  }
  @media (max-width: 400px) {
    .panel {
      padding: 20px 14px;
    }
  }
  .switch {
    margin: 16px 0 0;
    text-align: center;
  }
`;

/**
 * The dialog of the two modal elements: a native modal dialog (the page behind is inert), Tab
 * kept inside, Escape closes, and focus goes back where it was.
 */
export class ModalDialog {
  private returnFocus: HTMLElement | null = null;

  /** `requestClose` runs on Escape and the close button: the host closes through `close()`. */
  constructor(
    private readonly host: GatehouseElement,
    private readonly requestClose: () => void,
  ) {}

  get element(): HTMLDialogElement | null {
    return this.host.renderRoot.querySelector('dialog');
  }

  get isOpen(): boolean {
    return this.element?.open ?? false;
  }

  async open(): Promise<void> {
    await this.host.updateComplete;
    const dialog = this.element;
    if (!dialog || dialog.open) return;
    this.returnFocus = deepActiveElement();
    dialog.showModal();
    (dialog.querySelector('input, select, button:not(.close)') as HTMLElement | null)?.focus();
  }

  /** Closes the dialog and puts focus back; false when it was not open. */
  close(): boolean {
    const dialog = this.element;
    if (!dialog?.open) return false;
    dialog.close();
    const target = this.returnFocus;
    this.returnFocus = null;
    if (target?.isConnected) target.focus();
    return true;
  }

  /** Without `closable` there is no close button, Escape leaves it open, and the page behind is veiled. */
  shell(label: string, closeLabel: string, content: unknown, closable = true) {
    return html`<dialog
      part="dialog"
      class=${closable ? '' : 'holding'}
      aria-label=${label}
      @cancel=${(event: Event) => {
        event.preventDefault();
        this.requestClose();
      }}
      @close=${() => this.host.requestUpdate() /* a browser may close it despite a refused cancel (Escape twice): the host's update decides */}
      @keydown=${(event: KeyboardEvent) => trapFocus(event, event.currentTarget as HTMLElement)}
    >
      <div class="panel">
        ${closable ? html`<button class="close" part="close-button" type="button" aria-label=${closeLabel} @click=${() => this.requestClose()}>×</button>` : nothing}
        ${content}
      </div>
    </dialog>`;
  }
}

/**
 * `<gatehouse-auth-modal>`: sign in (as the login form does) or create an account in a dialog;
 * `show('login' | 'register')` opens it. It opens itself on a page opened from an emailed link
 * when the page has no login form.
 */
export class AuthModal extends SignInElement {
  static override elementName = 'auth-modal' as const;
  static override styles: CSSResultGroup = [sharedStyles, dialogStyles, signInStyles];
  static override properties: PropertyDeclarations = {
    ...SignInElement.properties,
    ...GatehouseElement.brandingProperties('auth-modal'),
    mode: { type: String, reflect: true },
    open: { type: Boolean, reflect: true },
  };

  declare mode: AuthMode;
  declare open: boolean;
  private readonly dialog = new ModalDialog(this, () => this.close());

  constructor() {
    super();
    this.mode = 'login';
    this.open = false;
  }

  async show(mode: AuthMode = this.mode): Promise<void> {
    this.mode = mode;
    this.open = true;
    await this.dialog.open();
  }

  /** Closes the dialog, fires `close` and puts focus back; it opens again on the password form. */
  close(): void {
    this.open = false;
    this.path = 'password';
    this.finishedFrom = 'password';
    if (this.dialog.close()) this.emit('close');
  }

  override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (changed.has('open') && this.open && !this.dialog.isOpen) void this.dialog.open();
    if (changed.has('open') && !this.open && this.dialog.isOpen) this.close();
  }

  override render() {
    const m = this.messages;
    const login = this.mode !== 'register';
    const body = html`${this.logo()} ${this.signInIntro(login ? 'login' : 'register')} ${this.signInForm(login ? 'login' : 'register')}
      ${this.path === 'password'
        ? html`<p class="switch">
            <button type="button" class="link" part="switch-link" @click=${() => this.switchTo(login ? 'register' : 'login')}>${login ? m.toRegister : m.toLogin}</button>
          </p>`
        : ''}`;
    return this.frame(this.dialog.shell(m.authDialog, m.close, body));
  }

  private async switchTo(mode: AuthMode): Promise<void> {
    this.mode = mode;
    await this.goTo('password');
    (this.renderRoot.querySelector('dialog input') as HTMLElement | null)?.focus();
  }

  protected override handlesEmailLink(): boolean {
    return !document.querySelector('gatehouse-login-form');
  }

  protected override openedFromLink(): void {
    void this.show('login');
  }

  /**
   * A sign-in begun here (password, code, registration) closes the dialog, so that what the reader
   * was doing goes on (a checkout); one finished from an emailed link (a new password, the sign-in
   * link) says so first, and the reader closes it.
   */
  protected override authenticated(mode: AuthMode, result: unknown): void {
    super.authenticated(mode, result);
    if (this.finishedFrom === 'reset' || this.finishedFrom === 'link') this.showSignedIn(result);
    else this.close();
    void recheckAccess().catch(() => undefined);
  }

  protected override signedInActions() {
    return html`<button type="button" part="primary-button" @click=${() => this.close()}>${this.messages.continueReading}</button>`;
  }
}

/** The page's auth modal: the one in the document, else a new one appended to the body. */
export function pageAuthModal(): AuthModal {
  let modal = document.querySelector('gatehouse-auth-modal') as AuthModal | null;
  if (!modal) {
    modal = document.createElement('gatehouse-auth-modal') as AuthModal;
    document.body.append(modal);
  }
  return modal;
}
