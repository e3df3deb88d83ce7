import { Controller } from '@nestjs/common';
import { AccountEmailRequests, type CustomerAuthResult, type CustomerProfile, type EmailRequestAccepted, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { EmailVerificationService } from './email-verification.service';
import { LoginCodesService } from './login-codes.service';
import { PasswordResetService } from './password-reset.service';

const R = AccountEmailRequests;

/** Password reset, email verification and sign-in codes (docs/email.md). */
@Controller()
export class AccountEmailHandler {
  constructor(
    private readonly passwordReset: PasswordResetService,
    private readonly verification: EmailVerificationService,
    private readonly loginCodes: LoginCodesService,
  ) {}

  @Handles(R.RequestPasswordReset)
  requestPasswordReset(request: RequestOf<typeof R.RequestPasswordReset>): Promise<EmailRequestAccepted> {
    return this.passwordReset.request(request);
  }

  @Handles(R.ConfirmPasswordReset)
  confirmPasswordReset(request: RequestOf<typeof R.ConfirmPasswordReset>): Promise<CustomerAuthResult> {
    return this.passwordReset.confirm(request);
  }

  @Handles(R.RequestEmailVerification)
  requestEmailVerification(request: RequestOf<typeof R.RequestEmailVerification>): Promise<EmailRequestAccepted> {
    return this.verification.request(request);
  }

  @Handles(R.VerifyEmail)
  verifyEmail(request: RequestOf<typeof R.VerifyEmail>): Promise<CustomerProfile> {
    return this.verification.verify(request);
  }

  @Handles(R.RequestLoginCode)
  requestLoginCode(request: RequestOf<typeof R.RequestLoginCode>): Promise<EmailRequestAccepted> {
    return this.loginCodes.request(request);
  }

  @Handles(R.VerifyLoginCode)
  verifyLoginCode(request: RequestOf<typeof R.VerifyLoginCode>): Promise<CustomerAuthResult> {
    return this.loginCodes.verifyCode(request);
  }

  @Handles(R.ConfirmLoginLink)
  confirmLoginLink(request: RequestOf<typeof R.ConfirmLoginLink>): Promise<CustomerAuthResult> {
    return this.loginCodes.confirmLink(request);
  }
}
