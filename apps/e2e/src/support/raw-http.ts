import { request } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A GET sent exactly as given, as an attacker's client sends it: the request target byte for byte
 * (`/a%2Fb`, `//a`, `http://host/a`) and any Host header, or none, that `fetch` would never send.
 */
export function rawGet(port: number, target: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, method: 'GET', path: target, setHost: false, headers: { Connection: 'close', ...headers } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(chunks).toString('utf8') }));
      answer.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}
