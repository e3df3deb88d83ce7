import { GIFT_LINK_PARAMETER } from '@gatehouse/contracts';
import { GIFT_PARAMETER, giftAmount, giftMessagesFor } from '../gift';

describe('gifts in the elements', () => {
  it('read the code from the fragment parameter the gift email links with', () => {
    expect(GIFT_PARAMETER).toBe(GIFT_LINK_PARAMETER);
  });

  it('show what billing charges: the monthly price times the months, a yearly one pro rata', () => {
    expect(giftAmount({ unitAmount: 900, interval: 'month' }, 3)).toBe(2700);
    expect(giftAmount({ unitAmount: 9900, interval: 'year' }, 6)).toBe(4950);
    expect(giftAmount({ unitAmount: 1000, interval: 'year' }, 1)).toBe(83);
  });

  it('speak the locale of the page, English otherwise', () => {
    expect(giftMessagesFor('de-AT').buy).toBe('Geschenk kaufen');
    expect(giftMessagesFor('pt').buy).toBe('Buy the gift');
  });
});
