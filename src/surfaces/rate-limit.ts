export const RATE_LIMIT_PER_MINUTE = 600;
const WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/**
 * A fixed one-minute window per token, in this process's memory (spec 8: "per token on each
 * application node"). REST and MCP draw on the same budget.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  private readonly limit: number;
  private readonly clock: () => number;

  constructor(limit = RATE_LIMIT_PER_MINUTE, clock: () => number = Date.now) {
    this.limit = limit;
    this.clock = clock;
  }

  take(key: string): RateDecision {
    const now = this.clock();
    let window = this.#windows.get(key);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
      if (this.#windows.size > 10_000) this.sweep(now);
    }
    window.count++;
    const allowed = window.count <= this.limit;
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000)),
    };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.#windows) {
      if (now - window.start >= WINDOW_MS) this.#windows.delete(key);
    }
  }
}

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  };
  if (!decision.allowed) headers['Retry-After'] = '60';
  return headers;
}
