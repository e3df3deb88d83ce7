/** What a spreadsheet takes for a formula at the start of a cell. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV line (RFC 4180 quoting, CRLF-terminated by the caller). Text a spreadsheet would take
 * for a formula (a name someone typed, starting `=`, `+`, `-`, `@`, a tab or a return) is
 * prefixed with `'` so it opens as text (OWASP's CSV injection advice); numbers stay numbers.
 */
export function csvLine(cells: Array<string | number | null>): string {
  return cells
    .map((value) => {
      const text = value === null ? '' : typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
      return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    })
    .join(',');
}

/** A cell as it was before `csvLine` guarded it against spreadsheets, so an export imports as it was. */
export function unguardedCell(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}
