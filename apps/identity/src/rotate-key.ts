import { createServiceDataSource } from '@gatehouse/db';
import { IdentityConfig, identityService, SigningKeysService, IdentitySecretsBox } from '@gatehouse/identity';
import { ConfigError, loadConfig, runMain, SystemClock } from '@gatehouse/platform';

/**
 * `npm run identity:rotate-key`: a new access-token signing key, used by every identity replica
 * from its next token on. Tokens of the replaced key keep verifying until they expire (15 minutes),
 * and gateways drop it from their JWKS within five minutes after that.
 */
runMain(async () => {
  const config = loadConfig(IdentityConfig);
  if (!config.DATABASE_URL) throw new ConfigError('Invalid configuration: DATABASE_URL must name the database identity uses');
  // Identity has created its schema already: nothing to migrate here.
  const dataSource = await createServiceDataSource({
    url: config.DATABASE_URL,
    caFile: config.DATABASE_CA_FILE,
    schema: identityService.schema,
    entities: identityService.entities,
    migrations: [],
    poolSize: 1,
  }).initialize();
  try {
    const kid = await new SigningKeysService(dataSource, new IdentitySecretsBox(config), new SystemClock()).rotate();
    console.log(`New signing key ${kid}. The previous key verifies its tokens until they expire.`);
  } finally {
    await dataSource.destroy();
  }
});
