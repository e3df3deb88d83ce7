import { ACCESS_TIMEOUT_MS as SDK_TIMEOUT } from '@gatehouse/sdk';
import { ACCESS_TIMEOUT_MS } from '../sdk';

describe('the wait for a decision', () => {
  it('is the SDK’s: a content lock whose SDK never started gives up when a started SDK would', () => {
    expect(ACCESS_TIMEOUT_MS).toBe(SDK_TIMEOUT);
  });
});
