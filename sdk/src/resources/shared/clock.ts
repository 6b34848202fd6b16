/** Time source for the waiting logic; tests substitute a virtual one. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/** `HH:MM:SS` UTC, what progress lines print for "next check at". */
export function clockTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19) + "Z";
}
