import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccountEmailRequests, type CustomerAuthResult, type CustomerProfile, type EmailRequestAccepted } from '@gatehouse/contracts';
import { BusClient } from '@gatehouse/bus';
import { Auth, RateLimit } from '../edge/credentials';
import { Caller, customerOf, keyPublicationOf, type Principal } from '../edge/principal';
import { requirePublicationPages } from '../edge/publication-pages';
import { EmailRequestAcceptedDto, EmailTokenDto, EmailWithReturnUrlDto, LoginCodeDto, PasswordResetConfirmDto } from './dtos/account-email.dto';
import { CustomerAuthResultDto, CustomerProfileDto, ReturnUrlDto } from './dtos/customer-auth.dto';

const NO_ENUMERATION = 'Answers 202 whether or not the email is a customer’s, and as fast; only a customer’s address gets a message.';
const PER_EMAIL_LIMIT = '`rate_limited`: 5 requests for this address within 15 minutes, or 20 calls a minute';
const TOKEN_REFUSED = '`email_token_invalid`: the token is unknown, expired or already used';

/** Account email (docs/email.md): password reset, email verification and one-time sign-in codes. */
@ApiTags('customer auth')
@Controller('auth/customers')
export class AccountEmailController {
  constructor(private readonly bus: BusClient) {}

  @Post('password-reset')
  @HttpCode(202)
  @Auth('any-key')
  @RateLimit('account-email')
  @ApiOperation({ summary: 'Email a single-use link (valid 30 minutes) to choose a new password.', description: NO_ENUMERATION })
  @ApiAcceptedResponse({ type: EmailRequestAcceptedDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 403, description: "`url_not_in_publication`: `returnUrl` is not on the publication's domains" })
  @ApiResponse({ status: 429, description: PER_EMAIL_LIMIT })
  requestPasswordReset(@Caller() caller: Principal, @Body() body: EmailWithReturnUrlDto): Promise<EmailRequestAccepted> {
    return this.bus.request(AccountEmailRequests.RequestPasswordReset, { publicationId: keyPublicationOf(caller), ...requirePublicationPages(caller, body, ['returnUrl']) });
  }

  @Post('password-reset/confirm')
  @HttpCode(200)
  @Auth('any-key')
  @RateLimit('account-email')
  @ApiOperation({ summary: "Set a new password with the reset link's token: every other session of the customer ends, and a new one starts." })
  @ApiOkResponse({ type: CustomerAuthResultDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 401, description: TOKEN_REFUSED })
  confirmPasswordReset(@Caller() caller: Principal, @Body() body: PasswordResetConfirmDto): Promise<CustomerAuthResult> {
    return this.bus.request(AccountEmailRequests.ConfirmPasswordReset, { publicationId: keyPublicationOf(caller), ...body });
  }

  @Post('verify-email')
  @HttpCode(200)
  @Auth('any-key')
  @RateLimit('account-email')
  @ApiOperation({ summary: "Confirm the customer's address with the verification link's token." })
  @ApiOkResponse({ type: CustomerProfileDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 401, description: TOKEN_REFUSED })
  verifyEmail(@Caller() caller: Principal, @Body() body: EmailTokenDto): Promise<CustomerProfile> {
    return this.bus.request(AccountEmailRequests.VerifyEmail, { publicationId: keyPublicationOf(caller), token: body.token });
  }

  @Post('verify-email/send')
  @HttpCode(202)
  @Auth('customer')
  @RateLimit('account-email')
  @ApiOperation({ summary: 'Email the signed-in customer a new verification link (nothing is sent once the address is verified).' })
  @ApiAcceptedResponse({ type: EmailRequestAcceptedDto })
  @ApiResponse({ status: 403, description: "`url_not_in_publication`: `returnUrl` is not on the publication's domains" })
  @ApiResponse({ status: 429, description: PER_EMAIL_LIMIT })
  requestEmailVerification(@Caller() caller: Principal, @Body() body: ReturnUrlDto): Promise<EmailRequestAccepted> {
    return this.bus.request(AccountEmailRequests.RequestEmailVerification, {
      publicationId: keyPublicationOf(caller),
      customerId: customerOf(caller).customerId,
      ...requirePublicationPages(caller, body, ['returnUrl']),
    });
  }

  @Post('login-code')
  @HttpCode(202)
  @Auth('any-key')
  @RateLimit('account-email')
  @ApiOperation({ summary: 'Email a 6-digit sign-in code and a sign-in link, both single use and valid 15 minutes.', description: NO_ENUMERATION })
  @ApiAcceptedResponse({ type: EmailRequestAcceptedDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 403, description: "`url_not_in_publication`: `returnUrl` is not on the publication's domains" })
  @ApiResponse({ status: 429, description: PER_EMAIL_LIMIT })
  requestLoginCode(@Caller() caller: Principal, @Body() body: EmailWithReturnUrlDto): Promise<EmailRequestAccepted> {
    return this.bus.request(AccountEmailRequests.RequestLoginCode, { publicationId: keyPublicationOf(caller), ...requirePublicationPages(caller, body, ['returnUrl']) });
  }

  @Post('login-code/verify')
  @HttpCode(200)
  @Auth('any-key')
  @RateLimit('account-email')
  @ApiOperation({ summary: 'Sign in with the emailed code. Five wrong codes use it (and its link) up.' })
  @ApiOkResponse({ type: CustomerAuthResultDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 401, description: '`code_invalid`: wrong, expired or used up (an unknown email answers the same)' })
  verifyLoginCode(@Caller() caller: Principal, @Body() body: LoginCodeDto): Promise<CustomerAuthResult> {
    return this.bus.request(AccountEmailRequests.VerifyLoginCode, { publicationId: keyPublicationOf(caller), ...body });
  }

  @Post('login-code/link')
  @HttpCode(200)
  @Auth('any-key')
  @RateLimit('account-email')
  @ApiOperation({
    summary: "Sign in with the token of the sign-in email's link.",
    description: 'Only this POST uses the token: the page the link opens must ask the reader to confirm first, so mail filters that open links use nothing up.',
  })
  @ApiOkResponse({ type: CustomerAuthResultDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 401, description: TOKEN_REFUSED })
  confirmLoginLink(@Caller() caller: Principal, @Body() body: EmailTokenDto): Promise<CustomerAuthResult> {
    return this.bus.request(AccountEmailRequests.ConfirmLoginLink, { publicationId: keyPublicationOf(caller), token: body.token });
  }
}
