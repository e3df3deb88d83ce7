import { promises as dns } from 'node:dns';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { decode, encode, type Answer } from 'dns-packet';

/**
 * A real DNS server on a local UDP port, standing in for the internet's DNS: it answers the PTR, A
 * and TXT records it is given (nothing else), and `useForThisProcess` points this process's resolver at
 * it, so the services under test (in this process) look names up through it as they would in production.
 */
export class TestDnsServer {
  private readonly records = new Map<string, Answer[]>();
  private previous: string[] = [];

  private constructor(private readonly socket: Socket) {
    socket.on('message', (message, remote) => {
      const query = decode(message);
      const answers = (query.questions ?? []).flatMap((q) => (this.records.get(`${q.type} ${q.name.toLowerCase()}`) ?? []) as Answer[]);
      socket.send(encode({ id: query.id, type: 'response', flags: 0x0100 | 0x0080, questions: query.questions, answers }), remote.port, remote.address);
    });
  }

  static async start(): Promise<TestDnsServer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new TestDnsServer(socket);
  }

  /** An address whose reverse DNS names `host`, which resolves forward to `forwardTo` (the address itself unless told). */
  host(address: string, host: string, forwardTo = address): this {
    const reverse = `${address.split('.').reverse().join('.')}.in-addr.arpa`;
    this.records.set(`PTR ${reverse}`, [{ type: 'PTR', name: reverse, ttl: 60, data: host }]);
    this.records.set(`A ${host.toLowerCase()}`, [{ type: 'A', name: host, ttl: 60, data: forwardTo }]);
    return this;
  }

  /** A TXT record of `name` holding `value` (a publisher's domain proof). */
  txt(name: string, value: string): this {
    this.records.set(`TXT ${name.toLowerCase()}`, [{ type: 'TXT', name, ttl: 60, data: value }]);
    return this;
  }

  useForThisProcess(): void {
    this.previous = dns.getServers();
    dns.setServers([`127.0.0.1:${(this.socket.address() as AddressInfo).port}`]);
  }

  close(): void {
    if (this.previous.length > 0) dns.setServers(this.previous);
    this.socket.close();
  }
}
