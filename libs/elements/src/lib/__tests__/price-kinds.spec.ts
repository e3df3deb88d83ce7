import { isOneTime as contractsIsOneTime, isPurchase as contractsIsPurchase, PRICE_INTERVALS } from '@gatehouse/contracts';
import { isOneTime, isPurchase } from '../price-kinds';

describe('price kinds in the elements', () => {
  it('read every interval as the contracts do', () => {
    for (const interval of PRICE_INTERVALS) {
      expect({ interval, oneTime: isOneTime(interval), purchase: isPurchase(interval) }).toEqual({
        interval,
        oneTime: contractsIsOneTime(interval),
        purchase: contractsIsPurchase(interval),
      });
    }
  });
});
