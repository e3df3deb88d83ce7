import { Injectable } from '@nestjs/common';
import { IdentityRequests, type CustomerAuthResult, type RequestOf } from '@gatehouse/contracts';
import { toCustomerView } from '../customers/customer-views';
import type { Customer } from '../customers/customer.entity';
import { CustomersService } from '../customers/customers.service';
import { AccessTokenSigner } from './access-token-signer.service';
import { RefreshTokens, refreshTokenInvalid } from './refresh-tokens.service';

/** A customer's signed-in state: an access token plus a refresh token of one family. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly customers: CustomersService,
    private readonly accessTokens: AccessTokenSigner,
    private readonly refreshTokens: RefreshTokens,
  ) {}

  /** After a registration or a login: a new refresh-token family. */
  async start(customer: Customer): Promise<CustomerAuthResult> {
    return this.authResult(customer, await this.refreshTokens.startFamily(customer));
  }

  async refresh(request: RequestOf<typeof IdentityRequests.Refresh>): Promise<CustomerAuthResult> {
    const rotated = await this.refreshTokens.rotate(request.publicationId, request.refreshToken);
    const customer = await this.customers.findById(request.publicationId, rotated.customerId);
    if (!customer) throw refreshTokenInvalid();
    return this.authResult(customer, rotated.refreshToken);
  }

  async end(request: RequestOf<typeof IdentityRequests.Logout>): Promise<{ loggedOut: true }> {
    if (request.everywhere) await this.refreshTokens.revokeAllOfTokenOwner(request.publicationId, request.refreshToken);
    else await this.refreshTokens.revokeFamilyOf(request.publicationId, request.refreshToken);
    return { loggedOut: true };
  }

  private async authResult(customer: Customer, refreshToken: string): Promise<CustomerAuthResult> {
    const accessToken = await this.accessTokens.sign(customer);
    return { accessToken: accessToken.token, refreshToken, expiresAt: accessToken.expiresAt, customer: toCustomerView(customer) };
  }
}
