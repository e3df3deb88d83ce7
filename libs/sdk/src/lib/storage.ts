/**
 * localStorage under keys named after the publishable key (decisions J1), so two publications on
 * one site never read each other's tokens or visitor ids. Where localStorage is unavailable
 * (blocked, or a private mode that throws), values live in memory for the page's life.
 */
export class KeyedStorage {
  private readonly memory = new Map<string, string>();

  constructor(
    private readonly storage: Storage | null,
    private readonly publishableKey: string,
  ) {}

  key(name: string): string {
    return `gatehouse:${this.publishableKey}:${name}`;
  }

  get(name: string): string | null {
    try {
      if (this.storage) return this.storage.getItem(this.key(name));
    } catch {
      // fall through to memory
    }
    return this.memory.get(name) ?? null;
  }

  set(name: string, value: string): void {
    this.memory.set(name, value);
    try {
      this.storage?.setItem(this.key(name), value);
    } catch {
      // quota or blocked storage: memory keeps the value for this page
    }
  }

  remove(name: string): void {
    this.memory.delete(name);
    try {
      this.storage?.removeItem(this.key(name));
    } catch {
      // as above
    }
  }
}
