/*
 * The crawlers the policy knows. AI crawlers are recognised by User-Agent alone (they publish no
 * reliable verification). Search engines claim a User-Agent anyone can send, so one counts only
 * when its address is verified: reverse DNS names a host of the engine and that host resolves back
 * to the address, or (where DNS does not answer) the address is in the engine's published ranges.
 * The ranges below are the engines' published IPv4 ranges as of 2026; refresh them with each release.
 */

export const AI_CRAWLER_AGENTS = [
  'GPTBot',
  'ChatGPT-User',
  'OAI-SearchBot',
  'ClaudeBot',
  'Claude-Web',
  'anthropic-ai',
  'CCBot',
  'PerplexityBot',
  'Perplexity-User',
  'Google-Extended',
  'Bytespider',
  'Amazonbot',
  'Applebot-Extended',
  'meta-externalagent',
  'cohere-ai',
  'Diffbot',
] as const;

export interface SearchEngine {
  name: string;
  userAgent: RegExp;
  /** Host name suffixes reverse DNS must give. */
  hostSuffixes: string[];
  /** Published IPv4 ranges, CIDR. */
  ranges: string[];
}

export const SEARCH_ENGINES: SearchEngine[] = [
  {
    name: 'Googlebot',
    userAgent: /\b(Googlebot|Google-InspectionTool|GoogleOther|Storebot-Google|AdsBot-Google)\b/i,
    // Google documents these for its crawlers; `.googleusercontent.com` names any Google Cloud VM, and user-triggered fetchers.
    hostSuffixes: ['.googlebot.com', '.google.com'],
    ranges: ['66.249.64.0/19', '34.22.85.0/27', '34.64.82.64/28', '34.65.242.112/28', '35.247.243.240/28', '192.178.5.0/27'],
  },
  {
    name: 'Bingbot',
    userAgent: /\bbingbot\b/i,
    hostSuffixes: ['.search.msn.com'],
    ranges: ['157.55.39.0/24', '207.46.13.0/24', '40.77.167.0/24', '13.66.139.0/24', '13.66.144.0/24', '52.167.144.0/24', '199.30.24.0/23'],
  },
  {
    name: 'Applebot',
    userAgent: /\bApplebot\b(?!-Extended)/i,
    hostSuffixes: ['.applebot.apple.com'],
    ranges: ['17.0.0.0/8'],
  },
  {
    name: 'DuckDuckBot',
    userAgent: /\bDuckDuckBot\b/i,
    hostSuffixes: [],
    ranges: ['20.191.45.212/32', '40.88.21.235/32', '40.76.173.151/32', '40.76.163.7/32', '20.185.79.47/32', '52.142.26.175/32'],
  },
  {
    name: 'YandexBot',
    userAgent: /\bYandexBot\b/i,
    hostSuffixes: ['.yandex.ru', '.yandex.net', '.yandex.com'],
    ranges: ['5.255.253.0/24', '77.88.5.0/24', '95.108.213.0/24', '213.180.203.0/24'],
  },
];

export function aiCrawlerOf(userAgent: string): string | undefined {
  const lower = userAgent.toLowerCase();
  return AI_CRAWLER_AGENTS.find((agent) => lower.includes(agent.toLowerCase()));
}

export function searchEngineOf(userAgent: string): SearchEngine | undefined {
  return SEARCH_ENGINES.find((engine) => engine.userAgent.test(userAgent));
}

/** Whether an IPv4 address (or an IPv4-mapped IPv6 one) lies in a CIDR range. */
export function inRange(ip: string, cidr: string): boolean {
  const address = toNumber(ip.replace(/^::ffff:/i, ''));
  const [base, bits] = cidr.split('/');
  const start = toNumber(base);
  if (address === null || start === null) return false;
  const mask = Number(bits) === 0 ? 0 : (~0 << (32 - Number(bits))) >>> 0;
  return (address & mask) >>> 0 === (start & mask) >>> 0;
}

function toNumber(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((n, p) => ((n << 8) | Number(p)) >>> 0, 0);
}
