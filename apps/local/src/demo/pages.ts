/*
 * The demo publisher's pages: a newspaper whose sections each show one of the web components,
 * with the two script tags exactly as a publisher pastes them. An article's text after its first
 * paragraph is its paid region (`data-gatehouse="paid"`): the server sends it only to a reader
 * the access check grants, and puts the offer of the rule's presentation in its place for the
 * others. The client-side section alone leaves its text in the HTML, to show what that means.
 */

export interface DemoSettings {
  publishableKey: string;
}

interface Section {
  path: string;
  title: string;
  rule: string;
  /** The element that shows the section's offer: the server's stand-in for the paid text (the register form follows free articles). */
  element: 'gatehouse-register-form' | 'gatehouse-paywall-modal' | 'gatehouse-content-lock' | 'gatehouse-sticky-bar' | 'gatehouse-inline-paywall';
  /** Where the paid text is held back: by the server (it never reaches a reader who may not read it), or only hidden in the browser. */
  gating: 'none' | 'server' | 'client';
  articles: Array<{ slug: string; title: string }>;
  /** The section's articles show how many free ones are left (`<gatehouse-meter-notice>`), with a link to create an account. */
  meterNotice?: boolean;
}

export const SECTIONS: Section[] = [
  {
    path: 'free',
    title: 'Free',
    rule: 'Free to read',
    element: 'gatehouse-register-form',
    gating: 'none',
    articles: [
      { slug: 'harbour-festival', title: 'The harbour festival returns this weekend' },
      { slug: 'library-hours', title: 'The library opens on Sundays again' },
    ],
  },
  {
    path: 'metered',
    title: 'News',
    rule: 'Metered: 3 free articles a month, then the paywall modal',
    element: 'gatehouse-paywall-modal',
    gating: 'server',
    meterNotice: true,
    articles: [
      { slug: 'council-budget', title: 'Council agrees next year’s budget' },
      { slug: 'new-tram-line', title: 'The new tram line opens in spring' },
      { slug: 'river-clean-up', title: 'Volunteers clean up the river banks' },
      { slug: 'market-square', title: 'Market square to be car-free on Saturdays' },
      { slug: 'school-results', title: 'Schools report their best results in a decade' },
    ],
  },
  {
    path: 'premium',
    title: 'Premium',
    rule: 'Subscribers only: the content lock',
    element: 'gatehouse-content-lock',
    gating: 'server',
    articles: [{ slug: 'investigation', title: 'Investigation: where the harbour money went' }],
  },
  {
    path: 'members',
    title: 'Members',
    rule: 'Registration wall: the sticky bar',
    element: 'gatehouse-sticky-bar',
    gating: 'server',
    articles: [{ slug: 'readers-letters', title: 'Readers’ letters of the week' }],
  },
  {
    path: 'newsletter',
    title: 'Newsletter',
    rule: 'Newsletter wall: the inline paywall',
    element: 'gatehouse-inline-paywall',
    gating: 'server',
    articles: [{ slug: 'weekend-guide', title: 'Your weekend guide' }],
  },
  {
    path: 'client-side',
    title: 'Client-side only',
    rule: 'Subscribers only, gated in the browser alone: the content lock hides text that is in the page',
    element: 'gatehouse-content-lock',
    gating: 'client',
    articles: [{ slug: 'council-minutes', title: 'The council minutes, annotated' }],
  },
];

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const LOREM = [
  'The city’s plans were presented on Tuesday evening to a full hall. Residents asked about the timetable, the cost and what would change for them in the months ahead.',
  'Officials said the first stage would begin after the summer, once the last consultations are over. Local businesses were cautiously optimistic about the effect on trade.',
  'Several speakers urged the council to publish its figures in full. The mayor promised a detailed report before the end of the year, and a second public meeting.',
];

function layout(settings: DemoSettings, title: string, main: string, lang = 'en'): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Demo Gazette</title>
<style>
  body { margin: 0; font: 17px/1.6 Georgia, 'Times New Roman', serif; color: #1f2330; background: #fbfaf7; }
  header, main, footer { max-width: 760px; margin: 0 auto; padding: 16px; }
  header { display: flex; flex-wrap: wrap; gap: 8px 20px; align-items: baseline; border-bottom: 2px solid #1f2330; }
  header .brand { font-size: 1.6rem; font-weight: bold; color: inherit; text-decoration: none; margin-inline-end: auto; }
  nav a { color: inherit; margin-inline-end: 12px; }
  .notice { font: 14px/1.4 system-ui, sans-serif; background: #fff4d6; border: 1px solid #c9a227; padding: 8px 12px; margin: 12px 0; }
  .notice.client-side { background: #fde8e8; border-color: #b42318; }
  article h1 { line-height: 1.2; }
  .rule { font: 14px system-ui, sans-serif; color: #4a5060; }
  ul.articles { padding-inline-start: 20px; }
  gatehouse-account-button.signin { font: 15px system-ui, sans-serif; }
  footer { font: 14px system-ui, sans-serif; color: #4a5060; padding-bottom: 120px; }
</style>
<script>
  // One visitor for the server and the browser: the SDK takes the id of the server's visitor cookie.
  window.gatehouse = window.gatehouse || [];
  var visitor = document.cookie.match(/(?:^|; )gatehouse_visitor=([^;]+)/);
  if (visitor) gatehouse.push(['identify', decodeURIComponent(visitor[1])]);
</script>
<style>gatehouse-content-lock:not(:defined){visibility:hidden;animation:gatehouse-reveal 0s 8s forwards}@keyframes gatehouse-reveal{to{visibility:visible}}</style>
<script src="/sdk/v1/gatehouse.js" data-publishable-key="${escape(settings.publishableKey)}" async></script>
<script src="/sdk/v1/elements.js" async></script>
<script src="/sdk/v1/account.js" async></script>
</head>
<body>
<header>
  <a class="brand" href="/demo/">Demo Gazette</a>
  <nav aria-label="Sections">${SECTIONS.map((s) => `<a href="/demo/${s.path}/${s.articles[0].slug}">${escape(s.title)}</a>`).join('')}</nav>
  <gatehouse-account-button class="signin"></gatehouse-account-button>
</header>
<main>
<p class="notice">A demo publisher site served by <code>npm start</code>. Payments go to a local fake processor: no real money moves.</p>
${main}
</main>
<footer>Demo Gazette runs on Gatehouse. <a href="/docs">API docs</a></footer>
<gatehouse-auth-modal></gatehouse-auth-modal>
</body>
</html>
`;
}

export function homePage(settings: DemoSettings): string {
  const list = SECTIONS.map(
    (s) => `<h2>${escape(s.title)}</h2><p class="rule">${escape(s.rule)} (<code>&lt;${s.element}&gt;</code>)</p>
<ul class="articles">${s.articles.map((a) => `<li><a href="/demo/${s.path}/${a.slug}">${escape(a.title)}</a></li>`).join('')}</ul>`,
  ).join('\n');
  return layout(settings, 'Home', `${list}\n<h2>Your account</h2>\n<gatehouse-login-form></gatehouse-login-form>`);
}

export function articlePage(settings: DemoSettings, sectionPath: string, slug: string): string | null {
  const section = SECTIONS.find((s) => s.path === sectionPath);
  const article = section?.articles.find((a) => a.slug === slug);
  if (!section || !article) return null;
  const [lede, ...rest] = LOREM.map((p) => `<p>${p}</p>`);
  const notice = section.meterNotice ? '\n<gatehouse-meter-notice register></gatehouse-meter-notice>' : '';
  const head = `<article><h1>${escape(article.title)}</h1><p class="rule">${escape(section.rule)}</p>${notice}`;
  const body = {
    none: `${lede}\n${rest.join('\n')}</article>\n<h2>Enjoyed it? Join us</h2>\n<gatehouse-register-form></gatehouse-register-form>`,
    // The server replaces the paid region by the offer of the rule's presentation for a reader it denies.
    server: `${lede}\n<div class="paid" data-gatehouse="paid">${rest.join('\n')}</div></article>`,
    client: `<p class="notice client-side">Client-side gating only: this article's whole text is in the page's HTML, and the content lock merely hides it. Anyone can read it in view-source or with scripts off. The other sections' paid text never leaves the server for a reader who may not read it.</p>
${lede}\n<gatehouse-content-lock>${rest.join('\n')}</gatehouse-content-lock></article>`,
  }[section.gating];
  return layout(settings, article.title, `${head}\n${body}`);
}
