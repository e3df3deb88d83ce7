import { Body, Controller, Delete, Get, Headers, HttpCode, Patch, Post, UseInterceptors } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IdentityRequests, PersonalDataRequests, type CustomerAuthResult, type CustomerProfile, type PersonalDataExport } from '@gatehouse/contracts';
import { BusClient, ReadYourWritesInterceptor } from '@gatehouse/bus';
import { AppError } from '@gatehouse/platform';
import { Auth, RateLimit } from '../edge/credentials';
import { Idempotent } from '../edge/idempotency.service';
import { requirePublicationPages } from '../edge/publication-pages';
import { Caller, customerOf, keyPublicationOf, type Principal } from '../edge/principal';
import { DeleteMyAccountDto, PersonalDataExportDto } from '../customers/dtos/personal-data.dto';
import { CustomerAuthResultDto, CustomerCredentialsDto, CustomerProfileDto, LogoutDto, RefreshTokenDto, RegisterCustomerDto, UpdateProfileDto } from './dtos/customer-auth.dto';

@ApiTags('customer auth')
@Controller('auth/customers')
export class CustomerAuthController {
  constructor(private readonly bus: BusClient) {}

  @Post('register')
  @Auth('any-key')
  @Idempotent()
  @ApiOperation({ summary: 'Register a customer with email and password; a verification email goes to the address (docs/email.md).' })
  @ApiCreatedResponse({ type: CustomerAuthResultDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({
    status: 403,
    description: "`url_not_in_publication`: `returnUrl` is not on the publication's domains; `registration_closed`: the publication has turned self-registration off",
  })
  @ApiResponse({ status: 409, description: '`email_taken`: the email is registered in this publication' })
  register(
    @Caller() caller: Principal,
    @Body() body: RegisterCustomerDto,
    @Headers('accept-language') acceptLanguage: string | undefined,
  ): Promise<CustomerAuthResult> {
    if (caller.apiKey?.selfRegistration === false) {
      throw new AppError('registration_closed', 'This site does not take new accounts. If you already have one, sign in.');
    }
    const locale = body.locale ?? acceptLanguage?.slice(0, 200);
    return this.bus.request(IdentityRequests.Register, { publicationId: keyPublicationOf(caller), ...requirePublicationPages(caller, body, ['returnUrl']), locale });
  }

  @Post('login')
  @HttpCode(200)
  @Auth('any-key')
  @ApiOperation({ summary: 'Log a customer in.' })
  @ApiOkResponse({ type: CustomerAuthResultDto })
  @ApiResponse({ status: 401, description: '`invalid_credentials`: unknown email or wrong password (one answer for both)' })
  @ApiResponse({ status: 429, description: '`rate_limited`: 10 failed logins for this email within 15 minutes' })
  login(@Caller() caller: Principal, @Body() body: CustomerCredentialsDto): Promise<CustomerAuthResult> {
    return this.bus.request(IdentityRequests.Login, { publicationId: keyPublicationOf(caller), ...body });
  }

  @Post('refresh')
  @HttpCode(200)
  @Auth('any-key')
  @ApiOperation({ summary: 'Trade a refresh token for a new pair; the presented token is used up.' })
  @ApiOkResponse({ type: CustomerAuthResultDto })
  @ApiResponse({ status: 401, description: '`refresh_token_invalid`: unknown, expired, revoked or already used (a reuse revokes the whole family)' })
  refresh(@Caller() caller: Principal, @Body() body: RefreshTokenDto): Promise<CustomerAuthResult> {
    return this.bus.request(IdentityRequests.Refresh, { publicationId: keyPublicationOf(caller), refreshToken: body.refreshToken });
  }

  @Post('logout')
  @HttpCode(204)
  @Auth('any-key')
  @ApiOperation({
    summary:
      "Revoke the refresh token's family (this device). With `everywhere: true`, every family of the token's customer (all devices): their next refresh fails. Access tokens already issued run out within 15 minutes. An unknown token is not an error.",
  })
  @ApiNoContentResponse()
  async logout(@Caller() caller: Principal, @Body() body: LogoutDto): Promise<void> {
    await this.bus.request(IdentityRequests.Logout, { publicationId: keyPublicationOf(caller), refreshToken: body.refreshToken, everywhere: body.everywhere === true });
  }

  @Get('me')
  @Auth('customer')
  @ApiOperation({ summary: 'The customer of the access token.' })
  @ApiOkResponse({ type: CustomerProfileDto })
  me(@Caller() caller: Principal): Promise<CustomerProfile> {
    return this.bus.request(IdentityRequests.GetCustomer, { publicationId: keyPublicationOf(caller), customerId: customerOf(caller).customerId });
  }

  @Patch('me')
  @Auth('customer')
  @RateLimit('account-email')
  @ApiOperation({
    summary:
      "The reader changes their own name or email. A new email is unverified (`emailVerified: false`) and gets a verification message whose link leads to `returnUrl`; links sent to the old address stop working. Emits `customer.updated`. The access token's `email_verified` changes at the next refresh.",
  })
  @ApiOkResponse({ type: CustomerProfileDto })
  @ApiResponse({ status: 400, description: '`validation_failed`' })
  @ApiResponse({ status: 403, description: "`url_not_in_publication`: `returnUrl` is not on the publication's domains" })
  @ApiResponse({ status: 409, description: '`email_taken`: another customer of the publication has this email' })
  updateMe(@Caller() caller: Principal, @Body() body: UpdateProfileDto): Promise<CustomerProfile> {
    return this.bus.request(IdentityRequests.UpdateProfile, {
      publicationId: keyPublicationOf(caller),
      customerId: customerOf(caller).customerId,
      ...requirePublicationPages(caller, body, ['returnUrl']),
    });
  }

  @Get('me/export')
  @Auth('customer')
  @ApiOperation({ summary: 'Everything held about the customer of the access token, as one JSON document (GDPR art. 15 and 20; docs/customers.md).' })
  @ApiOkResponse({ type: PersonalDataExportDto })
  export(@Caller() caller: Principal): Promise<PersonalDataExport> {
    return this.bus.request(PersonalDataRequests.Export, { publicationId: keyPublicationOf(caller), customerId: customerOf(caller).customerId });
  }

  @Delete('me')
  @HttpCode(204)
  @Auth('customer')
  // Answered once this replica heard of the deletion: the same access token is refused right after.
  @UseInterceptors(ReadYourWritesInterceptor)
  @ApiOperation({
    summary:
      "Erase the account of the access token's customer (GDPR art. 17), confirmed by their password or a sign-in code emailed to them; as `DELETE /api/v1/customers/:id` from then on.",
  })
  @ApiNoContentResponse()
  @ApiResponse({ status: 400, description: '`validation_failed`: neither or both of `password` and `code`' })
  @ApiResponse({ status: 401, description: '`invalid_credentials`: wrong password; `code_invalid`: wrong, expired or used-up code. Nothing is changed.' })
  @ApiResponse({ status: 429, description: '`rate_limited`: wrong passwords count as failed logins (10 per email within 15 minutes)' })
  async deleteMe(@Caller() caller: Principal, @Body() body: DeleteMyAccountDto): Promise<void> {
    const { password, code } = body;
    if ((password === undefined) === (code === undefined)) {
      throw AppError.invalid(password === undefined ? 'password' : 'code', 'give either your password or the code emailed to you, not both');
    }
    const confirmation = password !== undefined ? { password } : { code: code as string };
    await this.bus.request(PersonalDataRequests.Erase, { publicationId: keyPublicationOf(caller), customerId: customerOf(caller).customerId, confirmation });
  }
}
