const WINDOW_MS = 15 * 60_000;
export const ACCOUNT_FAILURES = 5;
export const ADDRESS_FAILURES = 20;

/** Failed log-ins counted per address and per account; past the limit, log-ins wait for the window to pass. */
export class LoginThrottle {
  readonly #failures = new Map<string, { start: number; count: number }>();

  private readonly clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.clock = clock;
  }

  /** Seconds to wait before another attempt, or null. */
  waitSeconds(address: string, account: string): number | null {
    const now = this.clock();
    const waits = [this.wait(`a:${address}`, ADDRESS_FAILURES, now), this.wait(`m:${account}`, ACCOUNT_FAILURES, now)].filter(
      (w): w is number => w !== null,
    );
    return waits.length ? Math.max(...waits) : null;
  }

  fail(address: string, account: string): void {
    for (const key of [`a:${address}`, `m:${account}`]) {
      const now = this.clock();
      const entry = this.#failures.get(key);
      if (!entry || now - entry.start >= WINDOW_MS) this.#failures.set(key, { start: now, count: 1 });
      else entry.count++;
    }
    if (this.#failures.size > 10_000) this.sweep();
  }

  succeed(account: string): void {
    this.#failures.delete(`m:${account}`);
  }

  private wait(key: string, limit: number, now: number): number | null {
    const entry = this.#failures.get(key);
    if (!entry || now - entry.start >= WINDOW_MS || entry.count < limit) return null;
    return Math.max(1, Math.ceil((entry.start + WINDOW_MS - now) / 1000));
  }

  private sweep(): void {
    const now = this.clock();
    for (const [key, entry] of this.#failures) if (now - entry.start >= WINDOW_MS) this.#failures.delete(key);
  }
}
