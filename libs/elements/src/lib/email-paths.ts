import { css, html, nothing, type CSSResultGroup, type PropertyDeclarations, type TemplateResult } from 'lit';
import { GatehouseElement, sharedStyles, type AuthMode } from './base';
import type { CustomerAuthResult } from '@gatehouse/contracts';
import type { Messages } from './messages';
import { errorOf, whenSdk, type Sdk } from './sdk';

/**
 * Where a sign-in element is: the password form, or a step of account email (docs/email.md):
 * a reset link or a code asked for, a code to enter, or a link from an email to confirm; and
 * `signed-in`, the confirmation that the form gave way to once the reader is signed in.
 */
export type SignInPath = 'password' | 'forgot' | 'forgot-sent' | 'code' | 'code-sent' | 'reset' | 'link' | 'verify' | 'verified' | 'signed-in';

type Text = { [K in keyof Messages]-?: Messages[K] extends string ? K : never }[keyof Messages];

/** Each step's heading and description. */
const STEP_TEXT: Record<Exclude<SignInPath, 'password'>, [Text, Text]> = {
  forgot: ['resetHeading', 'resetDescription'],
  'forgot-sent': ['checkInbox', 'resetSent'],
  code: ['codeHeading', 'codeDescription'],
  'code-sent': ['checkInbox', 'codeSent'],
  reset: ['newPasswordHeading', 'newPasswordDescription'],
  link: ['linkHeading', 'linkDescription'],
  verify: ['verifyHeading', 'verifyDescription'],
  verified: ['verifyHeading', 'verified'],
  'signed-in': ['signedInHeading', 'signedInAs'],
};

export const signInStyles = css`
  .switch {
    margin: 16px 0 0;
    text-align: center;
  }
  .email-paths {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: 8px 16px;
  }
`;

/** The step an emailed link opens. */
const LINK_STEP = { password_reset: 'reset', login_code: 'link', email_verification: 'verify' } as const;

/**
 * The login form and the auth modal: besides the password, "Forgot password?" (a reset link by
 * email, then a new password on the page the link opens) and "Email me a code" (a 6-digit code,
 * or the email's sign-in link). A link's token is used only when the reader presses the button,
 * never on load: mail filters open links to scan them.
 */
export abstract class SignInElement extends GatehouseElement {
  static override styles: CSSResultGroup = [sharedStyles, signInStyles];
  static override properties: PropertyDeclarations = { ...GatehouseElement.properties, path: { state: true } };

  declare path: SignInPath;
  /** The address a reset link or a code was sent to. */
  private sentTo = '';
  private linkToken = '';
  /** The signed-in reader's address, which the `signed-in` step names. */
  protected signedInAs = '';
  /** The step the last sign-in finished from: after a reset the confirmation says the new password is saved. */
  protected finishedFrom: SignInPath = 'password';
  private stopListening?: () => void;

  constructor() {
    super();
    this.path = 'password';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void whenSdk().then((sdk) => {
      const link = sdk.readEmailLink();
      if (link && this.handlesEmailLink()) {
        this.linkToken = link.token;
        this.path = LINK_STEP[link.kind];
        this.openedFromLink();
      } else {
        void sdk.getSession().then(
          (session) => session && this.path === 'password' && this.openedSignedIn(session),
          () => undefined,
        );
      }
      // Signed out elsewhere (another element, another tab): the confirmation gives way to the sign-in form, focus left where it is.
      this.stopListening?.();
      this.stopListening = sdk.onAuthChange((session) => {
        if (!session && this.path === 'signed-in') void this.goTo('password', false);
      });
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stopListening?.();
    this.stopListening = undefined;
  }

  /** Whether this element shows the step of a link the page was opened from. */
  protected handlesEmailLink(): boolean {
    return true;
  }

  /** Called when the page opens with the reader signed in (and no emailed link to take up). */
  protected openedSignedIn(_session: unknown): void {
    // The modal stays as it is: it opens when asked.
  }

  /** Called when this element takes up a link the page was opened from. */
  protected openedFromLink(): void {
    // The inline form just shows the step; the modal opens itself.
  }

  /** The heading and description of the current step (the branding copy on the password form). */
  protected signInIntro(mode: AuthMode): TemplateResult {
    const m = this.messages;
    const step = mode === 'login' && this.path !== 'password' ? STEP_TEXT[this.path] : null;
    const heading = step ? m[step[0]] : mode === 'login' ? this.copy('authHeading') : this.copy('authRegisterHeading');
    const said = this.path === 'signed-in' && this.finishedFrom === 'reset' ? m.passwordSaved : step ? m[step[1]] : '';
    const description = step ? said.replace('{email}', this.path === 'signed-in' ? this.signedInAs : this.sentTo) : mode === 'login' ? this.copy('authDescription') : this.copy('authRegisterDescription');
    // A step that only tells something takes the focus, so that a screen reader reads it.
    const told = this.path === 'forgot-sent' || this.path === 'verified' || this.path === 'signed-in';
    return html`<h2 part="heading" id="heading">${heading}</h2>
      <p part="description" id="description" class="muted" tabindex=${told ? '-1' : nothing} ?data-focus=${told}>${description}</p>`;
  }

  /** The form of the current step: the password form with its two other ways in, or a step of account email. */
  protected signInForm(mode: AuthMode): TemplateResult {
    if (mode === 'register') return this.authForm('register');
    const m = this.messages;
    const back = html`<p class="switch"><button type="button" class="link" part="back-link" @click=${() => this.goTo('password')}>${m.backToSignIn}</button></p>`;
    const step = (label: string, fields: unknown, action: (values: Record<string, string>, sdk: Sdk) => Promise<void>) =>
      html`<form part="form" novalidate @submit=${(event: SubmitEvent) => this.submitStep(event, action)}>${fields}${this.formFooter(label)}</form>`;
    switch (this.path) {
      case 'password':
        return html`${this.authForm('login')}
          <p class="switch email-paths">
            <button type="button" class="link" part="forgot-link" @click=${() => this.goTo('forgot')}>${m.forgotPassword}</button>
            <button type="button" class="link" part="code-link" @click=${() => this.goTo('code')}>${m.emailCode}</button>
          </p>`;
      case 'forgot':
        return html`${step(m.sendLink, this.field('email', m.email, 'email', 'email'), async (values, sdk) => {
          await sdk.requestPasswordReset(values['email']);
          this.sentTo = values['email'];
          this.goTo('forgot-sent');
        })}${back}`;
      case 'code':
        return html`${step(m.sendCode, this.field('email', m.email, 'email', 'email'), async (values, sdk) => {
          await sdk.requestLoginCode(values['email']);
          this.sentTo = values['email'];
          this.goTo('code-sent');
        })}${back}`;
      case 'code-sent':
        return html`${step(m.signIn, this.codeField(), (values, sdk) => this.signedIn(sdk.signInWithCode(this.sentTo, values['code'])))}
          <p class="switch"><button type="button" class="link" part="back-link" @click=${() => this.goTo('code')}>${m.newCode}</button></p>`;
      case 'reset':
        return html`${step(m.savePassword, this.field('password', m.newPassword, 'password', 'new-password'), (values, sdk) =>
          this.signedIn(sdk.confirmPasswordReset(this.linkToken, values['password'])),
        )}${back}`;
      case 'link':
        return html`${step(m.signMeIn, nothing, (_values, sdk) => this.signedIn(sdk.signInWithLink(this.linkToken)))}${back}`;
      case 'verify':
        return html`${step(m.confirmEmail, nothing, async (_values, sdk) => {
          await sdk.verifyEmail(this.linkToken);
          this.goTo('verified');
        })}${back}`;
      case 'signed-in':
        return this.signedInActions();
      default:
        return back;
    }
  }

  private codeField(): TemplateResult {
    const error = this.form.fieldErrors['code'] ?? '';
    return html`<div class="field">
      <label for="code" part="label">${this.messages.code}</label>
      <input
        id="code"
        name="code"
        type="text"
        inputmode="numeric"
        autocomplete="one-time-code"
        maxlength="6"
        pattern="[0-9]{6}"
        part="input code-input"
        required
        data-focus
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby="description code-error"
      />
      <p id="code-error" class="field-error" part="field-error">${error}</p>
    </div>`;
  }

  /** Moves to a step, its form fresh, and focus to it (unless the reader is busy elsewhere on the page). */
  protected async goTo(path: SignInPath, focus = true): Promise<void> {
    if (path !== 'signed-in') this.finishedFrom = 'password';
    this.path = path;
    this.form = { fieldErrors: {}, formError: '', busy: false };
    await this.updateComplete;
    if (focus) (this.renderRoot.querySelector('[data-focus], form input, form button') as HTMLElement | null)?.focus();
  }

  private async submitStep(event: SubmitEvent, action: (values: Record<string, string>, sdk: Sdk) => Promise<void>): Promise<void> {
    event.preventDefault();
    const values = this.formValues(event.target as HTMLFormElement);
    const m = this.messages;
    await this.submitting((sdk) =>
      action(values, sdk).catch((err: unknown) => {
        // The refusals a reader can act on, in the reader's language.
        const problem = errorOf(err);
        const known: Record<string, string> = { code_invalid: m.codeInvalid, email_token_invalid: m.linkInvalid, rate_limited: m.tooMany };
        throw problem.code && known[problem.code] ? { ...problem, detail: known[problem.code] } : err;
      }),
    );
  }

  /** What the `signed-in` step offers: signing out (the auth modal offers to go on reading instead). */
  protected signedInActions(): TemplateResult {
    const signOut = async () => {
      await (await whenSdk()).logout();
      await this.goTo('password');
    };
    return html`<p class="switch"><button type="button" class="link" part="sign-out-link" @click=${signOut}>${this.messages.signOut}</button></p>`;
  }

  /** The form gives way to the confirmation that the reader is signed in, which takes the focus after a sign-in here. */
  protected showSignedIn(result: unknown, focus = true): void {
    this.signedInAs = (result as Partial<CustomerAuthResult> | undefined)?.customer?.email ?? '';
    void this.goTo('signed-in', focus);
  }

  private async signedIn(session: Promise<unknown>): Promise<void> {
    const result = await session;
    this.linkToken = '';
    this.finishedFrom = this.path;
    this.path = 'password';
    this.authenticated('login', result);
  }
}
