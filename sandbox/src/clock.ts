/**
 * The sandbox clock: real time plus an offset that the management API can
 * advance, so tests can jump past cooldowns, refund windows and validity
 * without sleeping. Everything time-dependent in the sandbox reads this clock.
 */
export class SandboxClock {
  #offsetMs: number;

  constructor(offsetMs = 0) {
    this.#offsetMs = offsetMs;
  }

  /** Milliseconds since the epoch on the sandbox clock. */
  nowMs(): number {
    return Date.now() + this.#offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Moves the clock forward; going backwards is refused because cooldowns and windows assume monotonic time. */
  advance(seconds: number): Date {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new RangeError(`seconds must be a non-negative number, got ${String(seconds)}`);
    }
    this.#offsetMs += Math.round(seconds * 1000);
    return this.now();
  }
}
