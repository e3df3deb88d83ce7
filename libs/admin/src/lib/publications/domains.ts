/** Host names as stored: trimmed, lower-cased, without blanks or duplicates, in the order given. */
export function normaliseDomains(domains: readonly string[]): string[] {
  return [...new Set(domains.map((domain) => domain.trim().toLowerCase()).filter((domain) => domain !== ''))];
}
