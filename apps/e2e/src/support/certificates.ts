import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const openssl = (dir: string, args: string[]) => promisify(execFile)('openssl', args, { cwd: dir });
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/**
 * A private CA of the test's own (as an operator's internal CA would be) and a server certificate it
 * signed for localhost and 127.0.0.1, made with openssl.
 */
export class TestCertificates {
  private constructor(private readonly dir: string) {}

  static async create(): Promise<TestCertificates> {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-tls-'));
    await openssl(dir, ['req', '-x509', ...EC_KEY, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Gatehouse test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
    await openssl(dir, [
      'req', '-x509', '-CA', 'ca.crt', '-CAkey', 'ca.key', ...EC_KEY, '-keyout', 'server.key', '-out', 'server.crt', '-days', '2', '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-addext', 'basicConstraints=CA:FALSE', '-addext', 'extendedKeyUsage=serverAuth',
    ]);
    return new TestCertificates(dir);
  }

  /** The CA bundle a client is given to trust the server. */
  get caFile(): string {
    return join(this.dir, 'ca.crt');
  }

  get serverCertFile(): string {
    return join(this.dir, 'server.crt');
  }

  get serverKeyFile(): string {
    return join(this.dir, 'server.key');
  }

  get server(): { cert: string; key: string } {
    return { cert: readFileSync(this.serverCertFile, 'utf8'), key: readFileSync(this.serverKeyFile, 'utf8') };
  }

  destroy(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
