import { csvLine } from '@gatehouse/contracts/csv';

/** A CSV file (see `csvLine`: quoted, formulas neutralised) as a data: URL for a download link. */
export function csvHref(header: string[], rows: Array<Array<string | number | null>>): string {
  const text = [header, ...rows].map(csvLine).join('\r\n') + '\r\n';
  return `data:text/csv;charset=utf-8,${encodeURIComponent(text)}`;
}
