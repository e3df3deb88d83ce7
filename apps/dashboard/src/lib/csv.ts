/**
 * A CSV file (RFC 4180 quoting) as a data: URL for a download link. Text that a spreadsheet would
 * take for a formula (a name staff typed, starting `=`, `+`, `-`, `@`, a tab or a return) is
 * prefixed with `'` so it opens as text (OWASP's CSV injection advice); numbers stay numbers.
 */
export function csvHref(header: string[], rows: Array<Array<string | number | null>>): string {
  const cell = (value: string | number | null) => {
    const text = value === null ? '' : typeof value === 'number' ? String(value) : /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const text = [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
  return `data:text/csv;charset=utf-8,${encodeURIComponent(text)}`;
}
