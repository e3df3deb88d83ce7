import { Controller } from '@nestjs/common';
import { IdentityRequests, type CustomerAuthResult, type RequestOf } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { EmailVerificationService } from '../account-email/email-verification.service';
import { CustomersService } from '../customers/customers.service';
import { LoginService } from '../login/login.service';
import { SessionsService } from '../sessions/sessions.service';

/** Customer auth (spec 4.1): register and login start a session, refresh rotates it, logout ends it. */
@Controller()
export class CustomerAuthHandler {
  constructor(
    private readonly customers: CustomersService,
    private readonly login: LoginService,
    private readonly sessions: SessionsService,
    private readonly verification: EmailVerificationService,
  ) {}

  @Handles(IdentityRequests.Register)
  async registerCustomer(request: RequestOf<typeof IdentityRequests.Register>): Promise<CustomerAuthResult> {
    const customer = await this.customers.register(request, (manager, registered) =>
      this.verification.send(manager, registered, request.returnUrl ?? null),
    );
    return this.sessions.start(customer);
  }

  @Handles(IdentityRequests.Login)
  async logIn(request: RequestOf<typeof IdentityRequests.Login>): Promise<CustomerAuthResult> {
    return this.sessions.start(await this.login.authenticate(request));
  }

  @Handles(IdentityRequests.Refresh)
  refresh(request: RequestOf<typeof IdentityRequests.Refresh>): Promise<CustomerAuthResult> {
    return this.sessions.refresh(request);
  }

  @Handles(IdentityRequests.Logout)
  logOut(request: RequestOf<typeof IdentityRequests.Logout>): Promise<{ loggedOut: true }> {
    return this.sessions.end(request);
  }
}
