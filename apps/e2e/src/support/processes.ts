import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../../../..');

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((ok) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const socket = new Socket();
    socket.once('connect', () => ok(!!socket.end()));
    socket.once('error', () => ok(false));
    socket.connect(port, '127.0.0.1');
  });
}

/** Resolves with the exit code (or signal) once `child` has exited. */
export function exited(child: ChildProcess): Promise<number | NodeJS.Signals> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? (child.signalCode as NodeJS.Signals));
  return new Promise((ok) => child.once('exit', (code, signal) => ok(code ?? (signal as NodeJS.Signals))));
}

/**
 * A NATS server with JetStream of the test's own, on a free port with its own store, so a test
 * can stop it and start it again (same port, same store) without touching the shared one.
 */
export class PrivateNatsServer {
  private child: ChildProcess | undefined;
  private readonly store = mkdtempSync(join(tmpdir(), 'gatehouse-nats-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateNatsServer> {
    const server = new PrivateNatsServer(await freePort());
    await server.resume();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async resume(): Promise<void> {
    const child = spawn('/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.store], { stdio: 'ignore' });
    this.child = child;
    const deadline = Date.now() + 20_000;
    while (!(await portOpen(this.port))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`nats-server did not start on port ${this.port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Stops the server (as an outage would) and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGKILL');
    await exited(child);
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.store, { recursive: true, force: true });
  }
}
