import { IsOptional, IsString } from 'class-validator';
import { ConfigError, loadConfig, ServiceConfig } from '../config';

class ExampleConfig extends ServiceConfig {
  @IsOptional()
  @IsString()
  ADMIN_PASSWORD?: string;
}

describe('placeholder values', () => {
  it('stop a production start naming the variable', () => {
    const load = () => loadConfig(ExampleConfig, { NODE_ENV: 'production', ADMIN_PASSWORD: 'REPLACE_ME_ADMIN_PASSWORD' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow('Invalid configuration: ADMIN_PASSWORD still holds a placeholder (REPLACE_ME): set a real value');
    expect(() => loadConfig(ExampleConfig, { NODE_ENV: 'production', DATABASE_URL: 'postgres://identity:replace-me@postgres/gatehouse' })).toThrow(
      'DATABASE_URL still holds a placeholder',
    );
  });

  it('are accepted outside production, and real values in production', () => {
    expect(loadConfig(ExampleConfig, { ADMIN_PASSWORD: 'REPLACE_ME' }).ADMIN_PASSWORD).toBe('REPLACE_ME');
    expect(loadConfig(ExampleConfig, { NODE_ENV: 'production', ADMIN_PASSWORD: 'a real one' }).ADMIN_PASSWORD).toBe('a real one');
  });

  it('in variables the service does not read are none of its business', () => {
    expect(() => loadConfig(ExampleConfig, { NODE_ENV: 'production', SOMEONE_ELSES: 'REPLACE_ME' })).not.toThrow();
  });
});
