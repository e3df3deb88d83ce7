import { Controller } from '@nestjs/common';
import { GetJwks, type Jwks } from '@gatehouse/contracts';
import { Handles } from '@gatehouse/bus';
import { SigningKeysService } from './signing-keys.service';

@Controller()
export class JwksHandler {
  constructor(private readonly keys: SigningKeysService) {}

  @Handles(GetJwks)
  jwks(): Promise<Jwks> {
    return this.keys.jwks();
  }
}
