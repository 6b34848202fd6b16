import type { Clock } from "./clock.js";

/**
 * The outcome of one GetCertificateStatus call as the gate sees it: a status,
 * or the service's refusal with the seconds it asked us to wait.
 */
export type GatedRead<S> =
  | { kind: "status"; status: S; cooldownSeconds: number }
  | { kind: "rate-limited"; retryAfterSeconds: number };

/**
 * The service allows one status read per order per cooldown (180 s) and
 * refuses earlier ones with 429. Every status read in this process goes
 * through one gate per order so that no read is sent that would be refused:
 * reads are serialised, each waits for `last answer + cooldown` (or the
 * `retry_after` of a refusal), and a caller that queued behind another read
 * of the same order takes that answer instead of spending its own read —
 * two installments of one order waiting together cost one read per cooldown.
 */
export class StatusReadGate {
  private readonly orders = new Map<string, OrderSlot>();

  constructor(private readonly clock: Clock) {}

  /** Milliseconds since the epoch at which the next read of `key` is allowed. */
  nextAllowedAt(key: string): number {
    return this.orders.get(key)?.nextAllowedAt ?? 0;
  }

  /** The latest status read for `key` and when it arrived, if any. */
  latest<S>(key: string): { status: S; at: number } | undefined {
    return this.orders.get(key)?.latest as { status: S; at: number } | undefined;
  }

  /**
   * Reads the status through `read`, waiting for the cooldown first.
   * `freshAfter`: an answer obtained after this instant is acceptable, so a
   * caller that queued behind another read reuses that answer.
   * `deadline`: if the next allowed read falls after it, the read is not sent
   * and `undefined` is returned (the caller reports its timeout).
   */
  async read<S>(
    key: string,
    read: () => Promise<GatedRead<S>>,
    opts: { freshAfter: number; deadline?: number },
  ): Promise<{ status: S; at: number } | { rateLimitedUntil: number } | undefined> {
    const slot = this.slot(key);
    const previous = slot.queue;
    let release!: () => void;
    slot.queue = new Promise<void>((resolve) => (release = resolve));
    try {
      await previous;
      if (slot.latest && slot.latest.at > opts.freshAfter) return slot.latest as { status: S; at: number };
      const wait = slot.nextAllowedAt - this.clock.now();
      if (opts.deadline !== undefined && slot.nextAllowedAt > opts.deadline) return undefined;
      if (wait > 0) await this.clock.sleep(wait);
      const outcome = await read();
      const at = this.clock.now();
      if (outcome.kind === "rate-limited") {
        // Someone else (another process, another tool) read this order: the
        // service says exactly how long to wait, so trust it over our schedule.
        slot.nextAllowedAt = at + Math.max(1, outcome.retryAfterSeconds) * 1000 + SAFETY_MS;
        return { rateLimitedUntil: slot.nextAllowedAt };
      }
      // The service started its cooldown when it received the request, which is
      // before `at`; scheduling from `at` can only be late, never early.
      slot.nextAllowedAt = at + outcome.cooldownSeconds * 1000 + SAFETY_MS;
      slot.latest = { status: outcome.status, at };
      return slot.latest as { status: S; at: number };
    } finally {
      release();
    }
  }

  private slot(key: string): OrderSlot {
    let slot = this.orders.get(key);
    if (!slot) {
      slot = { nextAllowedAt: 0, queue: Promise.resolve() };
      this.orders.set(key, slot);
    }
    return slot;
  }
}

/** Absorbs clock granularity on the service side (whole-second comparisons). */
const SAFETY_MS = 250;

interface OrderSlot {
  nextAllowedAt: number;
  queue: Promise<void>;
  latest?: { status: unknown; at: number };
}
