/**
 * When to restart a crashed server: exponential back-off, and give up after repeated crashes.
 *
 * Pure (the clock is injected). A server that keeps crashing on start-up would otherwise spin and
 * flood the user with errors; after `maxRestarts` crashes within `windowMs` we stop and tell the
 * user once, with a button to open the settings.
 */

export interface RestartDecision {
  restart: boolean;
  /** Wait this long before restarting. */
  delayMs: number;
  /** How many crashes fell inside the window, this one included. */
  crashes: number;
}

export interface RestartOptions {
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxRestarts?: number;
  windowMs?: number;
}

export class RestartPolicy {
  private crashes: number[] = [];
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly maxRestarts: number;
  readonly windowMs: number;

  constructor(
    options: RestartOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.maxRestarts = options.maxRestarts ?? 5;
    this.windowMs = options.windowMs ?? 3 * 60_000;
  }

  /** Record a crash and decide what to do about it. */
  onCrash(): RestartDecision {
    const t = this.now();
    this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
    this.crashes.push(t);
    const n = this.crashes.length;
    if (n > this.maxRestarts) {
      return { restart: false, delayMs: 0, crashes: n };
    }
    const delayMs = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (n - 1));
    return { restart: true, delayMs, crashes: n };
  }

  /** Forget past crashes (a manual restart, or settings changed). */
  reset(): void {
    this.crashes = [];
  }
}
