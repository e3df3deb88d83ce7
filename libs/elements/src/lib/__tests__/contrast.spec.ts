import { contrastRatio, parseColor, textColorOn } from '../contrast';

describe('text on the primary colour', () => {
  it('reads computed rgb() and hex colours', () => {
    expect(parseColor('rgb(108, 92, 231)')).toEqual([108, 92, 231]);
    expect(parseColor('rgba(1, 2, 3, 0.5)')).toEqual([1, 2, 3]);
    expect(parseColor('#6C5CE7')).toEqual([108, 92, 231]);
    expect(parseColor('purple')).toBeNull();
  });

  it('picks white on the default purple, with AA contrast', () => {
    expect(textColorOn('#6C5CE7')).toBe('#ffffff');
    expect(contrastRatio([108, 92, 231], [255, 255, 255])).toBeGreaterThanOrEqual(4.5);
    expect(textColorOn('#5A4BD1')).toBe('#ffffff');
  });

  it('picks black on light colours and white on dark ones, always reaching AA for normal text where either can', () => {
    expect(textColorOn('#ffd400')).toBe('#000000');
    expect(textColorOn('#00ff00')).toBe('#000000');
    expect(textColorOn('#003366')).toBe('#ffffff');
    for (let i = 0; i < 200; i++) {
      const rgb: [number, number, number] = [(i * 37) % 256, (i * 91) % 256, (i * 53) % 256];
      const text = textColorOn(`rgb(${rgb.join(', ')})`) === '#ffffff' ? [255, 255, 255] : [0, 0, 0];
      // The better of black and white always reaches at least 4.58:1 (the worst case is mid grey).
      expect(contrastRatio(rgb, text as [number, number, number])).toBeGreaterThanOrEqual(4.5);
    }
  });
});
