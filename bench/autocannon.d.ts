// The part of autocannon's programmatic API the harness uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    max: number;
    total: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Seconds a request may wait for its answer before it counts as a timeout (default 10). */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /**
     * A sequence each connection sends in turn, over and over; each request passes through
     * setupRequest, which may give it another body.
     */
    requests?: {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: { body?: string }) => { body?: string };
    }[];
  }
  /** A run: its result once it ends, and each answer as it comes ('response': client, status, bytes, milliseconds). */
  export interface Run extends Promise<Result> {
    on(event: 'response', listener: (client: unknown, status: number, bytes: number, time: number) => void): Run;
  }
  export default function autocannon(options: Options): Run;
}
