import { hasPaidRegion, markPaidRegions, removePaidRegions, withStructuredData } from '../paid-regions';

const PAGE = `<html><head><title>T</title></head><body>
<p>Free lede.</p>
<div class="story" data-gatehouse="paid"><p>Paid one.</p><div>nested <div>deeper</div></div><!-- </div> in a comment --></div>
<p>Free footer.</p>
<section data-gatehouse='paid'><p>Paid two.</p></section>
</body></html>`;

describe('paid regions', () => {
  it('finds the marker in either quoting, and nothing in a page without it', () => {
    expect(hasPaidRegion(PAGE)).toBe(true);
    expect(hasPaidRegion('<div data-gatehouse="paywall">x</div>')).toBe(false);
  });

  it('replaces each whole paid element, nested ones included, and leaves the rest byte for byte', () => {
    const out = removePaidRegions(PAGE, '<gatehouse-inline-paywall class="gatehouse-paid"></gatehouse-inline-paywall>');
    expect(out).not.toMatch(/Paid one|Paid two|nested|deeper|in a comment/);
    expect(out).toBe(
      PAGE.replace(/<div class="story"[\s\S]*?comment --><\/div>/, '<gatehouse-inline-paywall class="gatehouse-paid"></gatehouse-inline-paywall>').replace(
        /<section[\s\S]*?<\/section>/,
        '<gatehouse-inline-paywall class="gatehouse-paid"></gatehouse-inline-paywall>',
      ),
    );
  });

  it('removes to the end of the page when a paid element is never closed', () => {
    expect(removePaidRegions('<p>a</p><div data-gatehouse="paid">secret', '[paywall]')).toBe('<p>a</p>[paywall]');
  });

  it('keeps every paid region for a granted reader, adding the class the structured data names', () => {
    const out = markPaidRegions(PAGE);
    expect(out).toContain('<div class="story gatehouse-paid" data-gatehouse="paid">');
    expect(out).toContain(`<section class="gatehouse-paid" data-gatehouse='paid'>`);
    expect(out.replace(/ ?class="(story )?gatehouse-paid"| gatehouse-paid/g, '')).toBe(PAGE.replace(' class="story"', ''));
  });

  it('puts schema.org paywall markup in the head', () => {
    const out = withStructuredData(PAGE, 'NewsArticle');
    const json = /<script type="application\/ld\+json"[^>]*>(.*?)<\/script><\/head>/.exec(out)![1];
    expect(JSON.parse(json)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      isAccessibleForFree: false,
      hasPart: { '@type': 'WebPageElement', isAccessibleForFree: false, cssSelector: '.gatehouse-paid' },
    });
  });
});
