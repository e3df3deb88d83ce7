/**
 * One CSV line (RFC 4180 quoting, CRLF). Text a spreadsheet would take for a formula (staff-typed,
 * starting `=`, `+`, `-`, `@`, a tab or a return) is prefixed with `'` so it opens as text
 * (OWASP's CSV injection advice); numbers stay numbers.
 */
export function csvLine(values: Array<string | number | null>): string {
  const cell = (value: string | number | null) => {
    const text = value === null ? '' : typeof value === 'number' ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return `${values.map(cell).join(',')}\r\n`;
}
