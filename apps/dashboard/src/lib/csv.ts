import { csvLine } from '@gatehouse/contracts';

/** A CSV file as a data: URL for a download link, its cells guarded as `csvLine` does. */
export function csvHref(header: string[], rows: Array<Array<string | number | null>>): string {
  const text = [header, ...rows].map(csvLine).join('\r\n') + '\r\n';
  return `data:text/csv;charset=utf-8,${encodeURIComponent(text)}`;
}
