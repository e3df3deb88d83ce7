/** A CSV file (RFC 4180 quoting) as a data: URL for a download link. */
export function csvHref(header: string[], rows: Array<Array<string | number | null>>): string {
  const cell = (value: string | number | null) => {
    const text = value === null ? '' : String(value);
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const text = [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
  return `data:text/csv;charset=utf-8,${encodeURIComponent(text)}`;
}
