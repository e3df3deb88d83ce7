import { Injectable } from '@nestjs/common';
import { IdentityRequests, type RequestOf } from '@gatehouse/contracts';
import { AppError } from '@gatehouse/platform';
import { normaliseEmail } from '../customers/customer-email';
import type { Customer } from '../customers/customer.entity';
import { CustomersService } from '../customers/customers.service';
import { PasswordHasher } from '../customers/password-hasher.service';
import { LoginThrottle } from './login-throttle.service';

@Injectable()
export class LoginService {
  constructor(
    private readonly customers: CustomersService,
    private readonly passwords: PasswordHasher,
    private readonly throttle: LoginThrottle,
  ) {}

  /** The customer whose email and password these are; an unknown email and a wrong password fail alike. */
  async authenticate(request: RequestOf<typeof IdentityRequests.Login>): Promise<Customer> {
    const email = normaliseEmail(request.email);
    const attempt = `${request.publicationId}:${email}`;
    await this.throttle.count(attempt);
    const customer = await this.customers.findByEmail(request.publicationId, email);
    const passwordMatches = await this.passwords.verify(request.password, customer?.passwordHash ?? null);
    if (!customer || !passwordMatches) {
      throw new AppError('invalid_credentials', 'The email or password is wrong.');
    }
    await this.throttle.succeeded(attempt);
    return customer;
  }
}
