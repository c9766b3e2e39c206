/** What the benchmark asks a load generator process to do, and what it answers. */

export interface LoadTarget {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface LoadJob {
  /** The server's origin, http://127.0.0.1:port. */
  readonly url: string;
  readonly targets: readonly LoadTarget[];
  readonly seconds: number;
  /** Closed loop: connections kept busy. */
  readonly connections: number;
  /** Closed loop: each target once in turn (creates), rather than a random one per request. */
  readonly inOrder?: boolean;
  /** Open loop: requests sent per second on schedule, whatever the answers' pace. */
  readonly rate?: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly perSecond: number;
  /** Milliseconds; in the open loop counted from the time the request was due to be sent. */
  readonly p50: number;
  readonly p99: number;
  /** Answers that are not the call's: 4xx and 5xx (a 304 is one). */
  readonly failed: number;
  readonly errors: number;
}
