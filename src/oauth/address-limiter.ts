import { SlowDown } from './errors.ts';

/** A fixed window of requests per client address, in this process's memory (spec 8). */
export class AddressLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  readonly limit: number;
  private readonly windowMs: number;
  private readonly clock: () => number;

  constructor(limit: number, windowMs: number, clock: () => number = Date.now) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.clock = clock;
  }

  /** Counts one request; returns null when allowed, else the seconds until the window resets. */
  take(address: string): number | null {
    const now = this.clock();
    let window = this.#windows.get(address);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.#windows.set(address, window);
      if (this.#windows.size > 10_000) this.sweep(now);
    }
    window.count++;
    if (window.count <= this.limit) return null;
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  private sweep(now: number): void {
    for (const [key, window] of this.#windows) if (now - window.start >= this.windowMs) this.#windows.delete(key);
  }
}

/** Counts a request from an address; past the limit, 429 slow_down with Retry-After (spec 5.2, 8). */
export function limitAddress(limiter: AddressLimiter, address: string, what: string): void {
  const wait = limiter.take(address);
  if (wait !== null) throw new SlowDown(`Too many ${what} from this address; try again later`, wait);
}
